"""``fastscore shanten-batch`` and ``discards-batch`` (issue #22 point 3): the job kinds ``shanten`` and
``discards`` of the batch pipeline (fastscore/jobs.py), their output columns in every format
(fastscore/io/schemas.py), dealt sample hands (``fastscore.sample.sample_dealt``), ``--keep``,
``--resume``, ``--dask``, and ``win`` read where given (``require_win=None``)."""

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
from fastscore import HandBatch, TILE_NAMES, discard_analysis, io, shanten_batch
from fastscore.cli import app
from fastscore.efficiency import NO_SHAPE
from fastscore.io import DISCARDS_COLUMNS, SHANTEN_COLUMNS
from fastscore.sample import sample_dealt

runner = CliRunner()

# Worked by hand.  The shanten of a shape is its distance less one: the fewest tiles to draw to hold a
# complete 17-tile hand of that shape (docs/efficiency.md).
#
# READY: 123m 456m 789m 123p 456p 9s (16 tiles, each kind once).
#   standard: five sets held, one 9s completes the eyes: distance 1, shanten 0.
#   nico nico: 16 single kinds; seven pairs (+1 each) and a pong (+2): 9 -> 8.
#   13 orphans: holds 1m 9m 1p 9s, 9 orphans missing, the pair +1, a set held (456m): 10 -> 9.
#   16 orphans: 147m held, 147p lacks 7p (+1), 369s lacks 3s 6s (+2), the 7 honours (+7), the eyes
#   (+1): 11 -> 10.
READY = "123m456m789m123p456p9s"
READY_SHANTEN = {"shanten": 0, "shanten_standard": 0, "shanten_nico_nico": 8, "shanten_thirteen_orphans": 9,
                 "shanten_sixteen_orphans": 10}
# READY + 9s (17 tiles): complete, -1.  Nico nico: the 9s pair, six more pairs (+6), a pong (+2): 8 -> 7.
# 13 orphans: 9 missing, the 9s pair held, 456m: 9 -> 8.  16 orphans: as above, the second 9s the eyes
# (369s takes one): 10 -> 9.
COMPLETE_SHANTEN = {"shanten": -1, "shanten_standard": -1, "shanten_nico_nico": 7, "shanten_thirteen_orphans": 8,
                    "shanten_sixteen_orphans": 9}
# THIRTEEN: the 13 orphans once each and 234m: ready on any orphan (the pair).  Standard: 234m, then
# 13 kinds none of which is within two of another: a pair (+1) and four sets (+2 each): 9 -> 8.  Nico
# nico as READY: 8.  16 orphans: 149m held, 1p 9p and 1s 9s lack one each (149p, 149s), the honours
# held, the eyes +1: 3 -> 2.
THIRTEEN = "19m19p19s1234567z 234m"
THIRTEEN_SHANTEN = {"shanten": 0, "shanten_standard": 8, "shanten_nico_nico": 8, "shanten_thirteen_orphans": 0,
                    "shanten_sixteen_orphans": 2}
# SIXTEEN: an orphan sheung per suit (147m 258p 369s) and the 7 honours: ready on any of them (the
# eyes).  Standard: no two tiles within two of each other: five sets (+2 each) and the eyes (+1):
# 11 -> 10.  13 orphans: holds 1m 9s and the honours, 9m 1p 9p 1s missing (+4), the pair (+1), a set
# (+2: no two held tiles make one): 7 -> 6.  Nico nico: 8.
SIXTEEN = "147m258p369s1234567z"
SIXTEEN_SHANTEN = {"shanten": 0, "shanten_standard": 10, "shanten_nico_nico": 8, "shanten_thirteen_orphans": 6,
                   "shanten_sixteen_orphans": 0}
# Four declared sets and 1234p: ready on 1p and 4p (the eyes); the special shapes take no declared set (null).
DECLARED = "[123m][456m][789m][EEE] 1p2p3p4p"
DECLARED_SHANTEN = {"shanten": 0, "shanten_standard": 0, "shanten_nico_nico": None, "shanten_thirteen_orphans": None,
                    "shanten_sixteen_orphans": None}
BAD = "1m 2m"  # two tiles: a flagged row
BAD_MESSAGE = "'1m 2m' holds 2 tiles"

# DRAWN: 123m 456p 789s 11z 2345s 9m with 1z drawn (tests/test_discards.py, test_efficiency_cli.py).
# Discarding 9m leaves 111z and 2345s: ready on 2s and 5s, 3 live copies each (one of each held): 6.
# Discarding 2s (5s) leaves 345s (234s) and a lone 9m: ready on 9m, 3 live.  Every other discard
# leaves the hand one exchange from ready: shanten 0 after the best discard, 3 ready discards.
DRAWN = {"hand": "123m456p789s11z 2345s 9m", "win": "1z", "seat": "S"}

SHANTEN_RECORDS = [
    {"hand": READY},
    {"hand": READY, "win": "9s"},
    {"hand": THIRTEEN},
    {"hand": BAD},
    {"hand": SIXTEEN, "win": ""},  # an empty win: no draw, a 16-tile hand
    {"hand": DECLARED},
]
SHANTEN_EXPECTED = [READY_SHANTEN, COMPLETE_SHANTEN, THIRTEEN_SHANTEN, None, SIXTEEN_SHANTEN, DECLARED_SHANTEN]


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def write(path, records):
    """Records as JSON lines, CSV (empty cells for absent values) or Parquet."""
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    elif path.suffix == ".csv":
        keys = list(dict.fromkeys(k for r in records for k in r))
        with open(path, "w", newline="") as f:
            out = csv.DictWriter(f, keys)
            out.writeheader()
            out.writerows(records)
    else:
        keys = list(dict.fromkeys(k for r in records for k in r))
        pq.write_table(pa.Table.from_pylist([{k: r.get(k) for k in keys} for r in records]), path)
    return path


def read_output(path) -> list[dict]:
    """An output file as records of JSON values (CSV cells converted back: ints, nulls, nested JSON)."""
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text().splitlines()]
    if path.suffix == ".parquet":
        return pq.read_table(path).to_pylist()
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for row in rows:
        record = {}
        for name, cell in row.items():
            if cell == "":
                record[name] = None
            elif name == "discards":
                record[name] = json.loads(cell)
            elif name.startswith("shanten"):
                record[name] = int(cell)
            else:
                record[name] = cell
        out.append(record)
    return out


def own_columns(record: dict) -> dict:
    return {k: record[k] for k in SHANTEN_COLUMNS[:-1]}


# --------------------------------------------------------------------------- dealt hands


def test_sample_dealt_is_chunk_independent_and_deals_valid_hands():
    whole = sample_dealt(3_000, seed=11, n_tiles=17)
    parts = [sample_dealt(size, seed=11, n_tiles=17, start=start) for start, size in ((0, 1), (1, 999), (1_000, 2_000))]
    for name in ("concealed", "declared", "win"):
        np.testing.assert_array_equal(np.concatenate([getattr(p, name) for p in parts]), getattr(whole, name))
    sixteen = sample_dealt(3_000, seed=11)
    np.testing.assert_array_equal(sixteen.concealed, whole.concealed)  # the 17-tile hand: the 16 and a draw
    assert (sixteen.win == -1).all() and (whole.win >= 0).all() and (whole.win < 34).all()
    held = whole.concealed.astype(int)
    held[np.arange(len(whole)), whole.win] += 1
    assert (whole.concealed.sum(axis=1) == 16).all() and (held.sum(axis=1) == 17).all()
    assert held.max() <= 4 and not whole.declared.any()  # no kind over 4, no declared set
    assert not whole.check(require_win=True).error.any() and not sixteen.check(require_win=False).error.any()
    # uniform: each kind held 17/34 = 0.5 times a hand on average (standard error 0.013 over 3,000 hands),
    # each kind drawn 1/34 of the time (88 draws each, standard deviation 9)
    assert (np.abs(held.mean(axis=0) - 0.5) < 0.06).all()
    assert (np.abs(np.bincount(whole.win, minlength=34) - 3_000 / 34) < 40).all()
    assert (held == 4).any()  # four of a kind happens (about 1 hand in 40 holds one)
    other = sample_dealt(3_000, seed=12, n_tiles=17)
    assert (other.concealed != whole.concealed).any(axis=1).mean() > 0.99
    with pytest.raises(ValueError, match="n_tiles must be 16 or 17"):
        sample_dealt(5, n_tiles=13)
    with pytest.raises(ValueError, match="at least 0"):
        sample_dealt(5, start=-1)


# --------------------------------------------------------------------------- shanten-batch


def test_shanten_batch_worked_hands(tmp_path):
    source = write(tmp_path / "hands.jsonl", [{"game_id": f"g{i}", **r} for i, r in enumerate(SHANTEN_RECORDS)])
    out = tmp_path / "out.jsonl"
    result = invoke("shanten-batch", source, "-o", out, "--keep", "game_id")
    assert result.exit_code == 0, result.output
    rows = read_output(out)
    assert list(rows[0]) == ["game_id", *SHANTEN_COLUMNS]  # the kept column first
    assert [r["game_id"] for r in rows] == ["g0", "g1", "g2", "g3", "g4", "g5"]
    for row, expected in zip(rows, SHANTEN_EXPECTED):
        if expected is None:  # the bad row: every shanten null, its message; the rows after it still scored
            assert own_columns(row) == dict.fromkeys(SHANTEN_COLUMNS[:-1]) and BAD_MESSAGE in row["error"]
        else:
            assert own_columns(row) == expected and row["error"] is None
    # the single-hand API agrees (its shapes without the shanten_ prefix, None where the hand cannot take one)
    assert fastscore.shanten(READY, "9s")._asdict() == {k.removeprefix("shanten_"): v for k, v in
                                                        COMPLETE_SHANTEN.items()}
    assert "bad hands.jsonl line 4: '1m 2m'" in result.stderr
    # the summary: the shanten histogram of the five analysed rows
    assert "shanten (-1 complete, 0 ready)  -1: 20.0% (1)  0: 80.0% (4)" in result.stdout


@pytest.mark.parametrize("kind", ["shanten", "discards"])
def test_same_values_in_every_format(tmp_path, kind):
    records = SHANTEN_RECORDS if kind == "shanten" else [DRAWN, {"hand": BAD, "win": "1m"}, {**DRAWN, "round": "N"}]
    got = {}
    for in_ext, out_ext in (("jsonl", "jsonl"), ("csv", "csv"), ("parquet", "parquet"), ("csv", "jsonl")):
        source = write(tmp_path / f"hands.{in_ext}", records)
        out = tmp_path / f"out-{in_ext}.{out_ext}"
        result = invoke(f"{kind}-batch", source, "-o", out)
        assert result.exit_code == 0, result.output
        got[in_ext, out_ext] = read_output(out)
    columns = SHANTEN_COLUMNS if kind == "shanten" else DISCARDS_COLUMNS
    reference = got["jsonl", "jsonl"]
    assert [list(r) for r in reference] == [list(columns)] * len(records)
    for key, rows in got.items():  # messages name the file: compare them without it
        assert [{**r, "error": r["error"] and r["error"].split(": ", 1)[1]} for r in rows] == \
               [{**r, "error": r["error"] and r["error"].split(": ", 1)[1]} for r in reference], key
    schema = pq.read_schema(tmp_path / "out-parquet.parquet")
    assert schema.names == list(columns)
    assert all(schema.field(name).type == pa.int8() and schema.field(name).nullable for name in columns[:-1]
               if name != "discards")
    if kind == "discards":
        entry = schema.field("discards").type.value_type
        assert [(f.name, str(f.type)) for f in entry] == [
            ("tile", "string"), ("shanten", "int8"), ("useful", "list<element: string not null>"),
            ("live_useful", "int16"),
            ("waits", "list<element: struct<tile: string not null, discard: int32 not null, self_draw: int32 not null>"
                      " not null>"),
            ("expected_discard", "double"), ("expected_self_draw", "double")]


def test_win_is_read_where_given(tmp_path):
    """``require_win=None``: a row with a win is a 17-tile hand, a row without one (absent, empty, null) a
    16-tile hand, in every reader: Python (< 32 records), the compiled parser, Parquet int and string
    columns, encoded hands."""
    batch = sample_dealt(300, seed=4, n_tiles=17)
    no_draw = np.arange(300) % 3 == 0
    batch.win[no_draw] = -1
    records = io.hand_records(batch)
    for record in records[::3]:
        del record["win"]
    expected = shanten_batch(batch)
    for some in (records[:20], records):
        got = HandBatch.from_records(some, require_win=None)
        np.testing.assert_array_equal(got.win, batch.win[:len(some)])
        assert not got.error.any()
    as_index = [{**r, "win": TILE_NAMES.index(r["win"]) if "win" in r else None} for r in records]
    for path in (write(tmp_path / "hands.csv", records), write(tmp_path / "hands.parquet", as_index),
                 write(tmp_path / "strings.parquet", [{**r, "win": r.get("win")} for r in records])):
        out = tmp_path / f"{path.stem}-{path.suffix[1:]}.parquet"
        assert invoke("shanten-batch", path, "-o", out).exit_code == 0
        assert pq.read_table(out).column("shanten").to_pylist() == expected.shanten.tolist(), path
    encoded = tmp_path / "encoded.parquet"
    io.write_encoded([batch], encoded)
    assert invoke("shanten-batch", encoded, "-o", tmp_path / "enc.parquet").exit_code == 0
    assert pq.read_table(tmp_path / "enc.parquet").column("shanten").to_pylist() == expected.shanten.tolist()


# --------------------------------------------------------------------------- discards-batch


def expected_discards(result, i: int) -> list[dict]:
    """Row ``i`` of ``discard_analysis``'s arrays as the output's ``discards`` entries (held kinds in tile order)."""
    ready = {(int(r), int(x)): k for k, (r, x) in enumerate(zip(result.ready_row, result.ready_discard))}
    out = []
    for x in np.flatnonzero(result.shanten[i] != NO_SHAPE).tolist():
        k = ready.get((i, x))
        waits = [] if k is None else [{"tile": t, **p} for t, p in result.waits.waits_at(k).items()]
        out.append({"tile": TILE_NAMES[x], "shanten": int(result.shanten[i, x]),
                    "useful": [TILE_NAMES[t] for t in range(34) if int(result.useful[i, x]) >> t & 1],
                    "live_useful": int(result.live_useful[i, x]), "waits": waits,
                    "expected_discard": float(result.expected_discard[i, x]),
                    "expected_self_draw": float(result.expected_self_draw[i, x])})
    return out


def test_discards_batch_worked_hand(tmp_path):
    source = write(tmp_path / "hands.jsonl", [DRAWN, {"hand": BAD, "win": "1m"}, {"hand": READY, "win": "9s"}])
    out = tmp_path / "out.jsonl"
    result = invoke("discards-batch", source, "-o", out)
    assert result.exit_code == 0, result.output
    drawn, bad, complete = read_output(out)
    entries = {e["tile"]: e for e in drawn["discards"]}
    # one entry per held kind, in tile order: 1m 2m 3m 9m 4p 5p 6p 2s 3s 4s 5s 7s 8s 9s 1z
    assert list(entries) == ["1m", "2m", "3m", "9m", "4p", "5p", "6p", "2s", "3s", "4s", "5s", "7s", "8s", "9s", "1z"]
    assert drawn["shanten"] == 0 and drawn["error"] is None
    assert [t for t, e in entries.items() if e["shanten"] == 0] == ["9m", "2s", "5s"]
    assert all(e["shanten"] == 1 and e["waits"] == [] and e["expected_discard"] == 0.0 for t, e in entries.items()
               if t not in ("9m", "2s", "5s"))
    nine = entries["9m"]
    assert nine["useful"] == ["2s", "5s"] and nine["live_useful"] == 6
    assert [w["tile"] for w in nine["waits"]] == ["2s", "5s"]
    assert [w["tile"] for w in entries["2s"]["waits"]] == ["9m"] and entries["2s"]["live_useful"] == 3
    # the payouts are those of the 16-tile hand left (fastscore.waits, seat S); both waits pay alike, so
    # the mean over the 6 live waiting tiles is that payout
    left = fastscore.waits("123m456p789s111z 2345s", seat="S")
    assert {w["tile"]: {"discard": w["discard"], "self_draw": w["self_draw"]} for w in nine["waits"]} == left
    assert nine["expected_discard"] == left["2s"]["discard"] and nine["expected_self_draw"] == left["2s"]["self_draw"]
    # as the single-hand command lists them (best first; its "live" is live_useful)
    single = fastscore.discards(DRAWN["hand"], DRAWN["win"], seat="S")
    assert sorted(single, key=lambda d: TILE_NAMES.index(d["discard"])) == [
        {"discard": e["tile"], "shanten": e["shanten"], "useful": e["useful"], "live": e["live_useful"],
         "waits": {w["tile"]: {"discard": w["discard"], "self_draw": w["self_draw"]} for w in e["waits"]},
         "expected_discard": e["expected_discard"], "expected_self_draw": e["expected_self_draw"]}
        for e in drawn["discards"]]
    assert bad["shanten"] is None and bad["discards"] == [] and BAD_MESSAGE in bad["error"]
    # READY + 9s is complete: discarding the 9s drawn leaves it ready on 9s again, shanten 0
    assert complete["shanten"] == 0 and {e["tile"]: e["shanten"] for e in complete["discards"]}["9s"] == 0
    assert "ready discards: " in result.stdout and "shanten after the best discard (0 ready)  0: 100.0% (2)" in \
        result.stdout


def test_discards_batch_needs_the_draw(tmp_path):
    no_win = invoke("discards-batch", write(tmp_path / "h.csv", [{"hand": READY}]), "-o", tmp_path / "o.csv")
    assert no_win.exit_code == 2 and "no 'win' column" in no_win.stderr and "discards-batch the drawn tile" in \
        no_win.stderr
    rows = invoke("discards-batch", write(tmp_path / "h.jsonl", [DRAWN, {"hand": READY}]), "-o", tmp_path / "o.jsonl")
    assert rows.exit_code == 0 and "no winning tile" in read_output(tmp_path / "o.jsonl")[1]["error"]
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize("kind", ["shanten", "discards"])
def test_batch_equals_the_api_on_the_same_rows(tmp_path, kind):
    """Dealt hands (mostly 3 to 5 from ready) and winning hands (with declared sets, flowers, every seat;
    discarding the winning tile leaves them ready): the command's rows are the API's on the same records."""
    dealt = sample_dealt(1_000, seed=21, n_tiles=17)
    dealt.seat[:] = np.arange(1_000) % 4
    records = io.hand_records(dealt) + io.hand_records(fastscore.sample_winning(500, seed=21))
    if kind == "shanten":
        for record in records[::2]:
            del record["win"]  # 16-tile hands beside 17-tile ones
    source = write(tmp_path / "hands.parquet", records)
    out = tmp_path / "out.jsonl"
    result = invoke(f"{kind}-batch", source, "-o", out, "--chunk-rows", 400)
    assert result.exit_code == 0, result.output
    got = read_output(out)
    assert all(r["error"] is None for r in got)
    if kind == "shanten":
        batch = HandBatch.from_records(records, require_win=None)
        expected = shanten_batch(batch)
        for name, column in zip(SHANTEN_COLUMNS, (expected.shanten, expected.standard, expected.nico_nico,
                                                  expected.thirteen_orphans, expected.sixteen_orphans)):
            assert [r[name] for r in got] == [None if v == NO_SHAPE else v for v in column.tolist()], name
        assert -1 in expected.shanten and NO_SHAPE in expected.nico_nico  # complete hands; declared sets
    else:
        expected = discard_analysis(HandBatch.from_records(records))
        assert [r["shanten"] for r in got] == expected.shanten.min(axis=1).tolist()
        for i in range(len(records)):
            assert got[i]["discards"] == expected_discards(expected, i), i
        assert len(expected.ready_row) > 500  # each winning hand has a ready discard or more


# --------------------------------------------------------------------------- sample, keep, resume, DuckDB, Dask


@pytest.mark.parametrize("kind", ["shanten", "discards"])
def test_sample_writes_the_dealt_hands_first_whatever_the_chunks(tmp_path, kind):
    n_tiles = 16 if kind == "shanten" else 17
    outs = []
    for chunk_rows in (97, 65_536):
        out = tmp_path / f"sample-{chunk_rows}.parquet"
        result = invoke(f"{kind}-batch", "--sample", 600, "--seed", 8, "-o", out, "--chunk-rows", chunk_rows)
        assert result.exit_code == 0, result.output
        outs.append(out)
    assert outs[0].read_bytes() == outs[1].read_bytes()
    table = pq.read_table(outs[0])
    keys = io.schemas.input_keys(kind)
    assert table.column_names == [*keys, *(SHANTEN_COLUMNS if kind == "shanten" else DISCARDS_COLUMNS)]
    assert ("win" in keys) == (kind == "discards")
    dealt = sample_dealt(600, seed=8, n_tiles=n_tiles)
    assert table.select(keys).to_pylist() == [{k: r[k] for k in keys} for r in io.hand_records(dealt)]
    again = tmp_path / "again.jsonl"  # read back as input, the result columns skipped
    assert invoke(f"{kind}-batch", outs[0], "-o", again).exit_code == 0
    assert [r["shanten"] for r in read_output(again)] == table.column("shanten").to_pylist()


def interrupt_after(monkeypatch, kind: str, chunks: int) -> None:
    """Make ``kind``'s batch function raise KeyboardInterrupt after the warm-up call and ``chunks`` chunks
    (as tests/test_resume.py does for score and waits)."""
    name = "shanten_batch" if kind == "shanten" else "discard_analysis"
    real = getattr(fastscore.efficiency, name)
    calls = 0

    def interrupted(*args, **kwargs):
        nonlocal calls
        calls += 1
        if calls > 1 + chunks:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(fastscore.efficiency, name, interrupted)


@pytest.mark.parametrize(("kind", "ext"), [("shanten", "parquet"), ("shanten", "csv"), ("discards", "parquet"),
                                           ("discards", "jsonl")])
def test_resume_writes_the_uninterrupted_file(tmp_path, monkeypatch, kind, ext):
    records = io.hand_records(sample_dealt(2_000, seed=3, n_tiles=17))
    records[5]["hand"] = BAD
    for i, record in enumerate(records):
        record["game_id"] = f"g{i}"
    source = write(tmp_path / "hands.parquet", records)
    args = [f"{kind}-batch", source, "--chunk-rows", 300, "--keep", "game_id"]
    reference = tmp_path / f"reference.{ext}"
    assert invoke(*args, "-o", reference).exit_code == 0
    out = tmp_path / f"out.{ext}"
    with monkeypatch.context() as patch:
        interrupt_after(patch, kind, chunks=2)
        stopped = invoke(*args, "-o", out)
    assert stopped.exit_code == 130 and "the first 600 rows are kept" in stopped.stderr and not out.exists()
    manifest = json.loads((tmp_path / f".out.{ext}.parts" / "job.json").read_text())
    assert manifest["kind"] == kind and manifest["job"]["command"] == f"{kind}-batch"
    other = "discards" if kind == "shanten" else "shanten"
    refused = invoke(f"{other}-batch", *args[1:], "-o", out, "--resume")
    assert refused.exit_code == 2 and f"command was {kind}-batch, now {other}-batch" in refused.stderr
    resumed = invoke(f"{kind}-batch", source, "--chunk-rows", 700, "--keep", "game_id", "-o", out, "--resume")
    assert resumed.exit_code == 0 and "resuming at row 600" in resumed.stderr, resumed.output
    assert out.read_bytes() == reference.read_bytes()
    assert read_output(out)[7]["game_id"] == "g7"


def test_duckdb_reads_the_discards(tmp_path):
    out = tmp_path / "discards.parquet"
    source = write(tmp_path / "hands.jsonl", [DRAWN, {"hand": BAD, "win": "1m"}])
    assert invoke("discards-batch", source, "-o", out).exit_code == 0
    rows = duckdb.sql(f"SELECT d.tile, d.shanten, d.live_useful, len(d.waits), d.expected_discard "
                      f"FROM (SELECT unnest(discards) AS d FROM '{out}') WHERE d.shanten = 0").fetchall()
    left = fastscore.waits("123m456p789s111z 2345s", seat="S")
    after_2s = fastscore.waits("123m456p789s111z 345s 9m", seat="S")  # discard 2s: ready on 9m alone
    assert rows == [("9m", 0, 6, 2, float(left["2s"]["discard"])), ("2s", 0, 3, 1, float(after_2s["9m"]["discard"])),
                    ("5s", 0, 3, 1, rows[2][4])]
    waits = duckdb.sql(f"SELECT w.tile FROM (SELECT unnest(d.waits) AS w FROM (SELECT unnest(discards) AS d "
                       f"FROM '{out}') WHERE d.tile = '9m')").fetchall()
    assert waits == [("2s",), ("5s",)]
    assert duckdb.sql(f"SELECT shanten, len(discards), error IS NULL FROM '{out}'").fetchall() == [
        (0, 15, True), (None, 0, False)]


def test_dask_path_writes_the_single_machine_output(tmp_path, monkeypatch):
    """shanten_parquet / discards_parquet without a client (the tasks in this process), and discards-batch
    --dask local:1, write the single-machine Parquet output; the partition summaries add up to it."""
    from fastscore import jobs
    from fastscore.dask import discards_parquet, shanten_parquet

    records = io.hand_records(sample_dealt(900, seed=6, n_tiles=17))
    records[10]["hand"] = BAD
    source = write(tmp_path / "hands.parquet", records)
    for kind, job in (("shanten", shanten_parquet), ("discards", discards_parquet)):
        single = tmp_path / f"{kind}.parquet"
        assert invoke(f"{kind}-batch", source, "-o", single).exit_code == 0
        done = job(source, tmp_path / kind, partition_rows=400, summarize=lambda r, k=kind: jobs.partition_summary(k, r))
        got = pa.concat_tables([pq.read_table(path) for path in done.paths])
        assert got.equals(pq.read_table(single)) and done.bad_rows == 1
        merged, whole = jobs.new_summary(kind), jobs.new_summary(kind)
        for part in done.summaries:
            merged.merge(part)
        whole.add(jobs.processor(kind)(HandBatch.from_records(records, require_win=jobs.require_win_of(kind)), None))
        assert {k: np.asarray(v).tolist() for k, v in vars(merged).items()} == \
               {k: np.asarray(v).tolist() for k, v in vars(whole).items()}
    monkeypatch.setattr("fastscore.dask.cluster._dashboard_address", lambda: ":0")
    result = invoke("discards-batch", source, "-o", tmp_path / "cluster", "--dask", "local:1", "--chunk-rows", 400)
    assert result.exit_code == 0, result.output
    assert "shanten after the best discard" in result.stdout
    got = pa.concat_tables([pq.read_table(p) for p in sorted((tmp_path / "cluster").glob("part.*.parquet"))])
    assert got.equals(pq.read_table(tmp_path / "discards.parquet"))
