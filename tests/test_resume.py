"""Output integrity and ``--resume`` (fastscore.io "Resuming"; the ``batch`` and ``waits-batch`` commands).

An interrupted job (Ctrl-C, SIGKILL, an exception) never leaves a file under
the output name, keeps its completed chunks in ``.<name>.parts``, and a run
with ``--resume`` continues from them and writes the very bytes of an
uninterrupted run.  The kill tests run the command line in a subprocess (the
numba kernels load from the on-disk cache, warmed here first); the rest
interrupt it in-process, by making the scoring function raise
KeyboardInterrupt after some chunks.
"""

from __future__ import annotations

import csv
import gc
import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import fastscore
from fastscore import io
from fastscore.cli import app

runner = CliRunner()

BAD_HAND = "11m99m77p11s9s EE RR 333x"  # unknown letter: a flagged row, whose message names its file row
BIG_ROWS = 40_000
BIG_CHUNK = 2_000


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def hand_records(n: int, seed: int, bad=()) -> list[dict]:
    """``n`` random winning hands as input records; rows in ``bad`` get an unreadable hand."""
    records = io.hand_records(fastscore.sample_winning(n, seed))
    for i in bad:
        records[i]["hand"] = BAD_HAND
    return records


def write_input(path: Path, records) -> Path:
    """Records as Parquet (row groups of 1,500: chunks and resume points fall inside them), JSON
    lines (with blank lines and one unreadable line) or CSV (strings)."""
    if path.suffix == ".parquet":
        pq.write_table(pa.Table.from_pylist(records), path, row_group_size=1_500)
    elif path.suffix == ".jsonl":
        lines = [json.dumps(r) for r in records]
        lines[7] = '{"hand": "11m99m77p11s9s EE RR 333p", "win":'  # becomes a flagged row
        path.write_text("\n".join(line + ("\n" if i % 500 == 3 else "") for i, line in enumerate(lines)) + "\n")
    else:
        with open(path, "w", newline="") as f:
            writer = csv.DictWriter(f, list(records[0]))
            writer.writeheader()
            writer.writerows({k: "" if v is None else str(v).lower() if isinstance(v, bool) else v
                              for k, v in r.items()} for r in records)
    return path


def parts_of(out: Path) -> Path:
    return out.with_name(f".{out.name}.parts")


def hidden_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """40,000 hands (3 bad) in Parquet and the output of an uninterrupted ``batch`` run."""
    fastscore.score_batch(fastscore.sample_winning(10, 0))  # load (or compile and cache) the kernels
    folder = tmp_path_factory.mktemp("big")
    source = write_input(folder / "big.parquet", hand_records(BIG_ROWS, 11, bad=(5, 21_000, BIG_ROWS - 1)))
    reference = folder / "reference.parquet"
    result = invoke("batch", source, "-o", reference, "--chunk-rows", BIG_CHUNK)
    assert result.exit_code == 0, result.output
    assert "bad row 21000: '333x'" in result.stderr
    return source, reference


def start_and_signal(args, parts: Path, sig) -> subprocess.CompletedProcess:
    """Run ``fastscore ARGS`` in a subprocess and send it ``sig`` once its first part file exists."""
    proc = subprocess.Popen([sys.executable, "-m", "fastscore.cli", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not any(parts.glob("part-*")):
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the run ended (status {proc.returncode}) before writing a part:\n{out}\n{err}")
        if time.monotonic() > deadline:
            proc.kill()
            proc.communicate()
            pytest.fail("no part file within 60 s")
        time.sleep(0.002)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def assert_same_file(got: Path, expected: Path) -> None:
    if got.suffix == ".parquet":
        assert pq.read_table(got).equals(pq.read_table(expected))
    assert got.read_bytes() == expected.read_bytes()


# --------------------------------------------------------------------------- killed processes


def test_sigkill_then_resume_writes_the_uninterrupted_file(big, tmp_path):
    source, reference = big
    out = tmp_path / "out.parquet"
    killed = start_and_signal(["batch", source, "-o", out, "--chunk-rows", BIG_CHUNK], parts_of(out), signal.SIGKILL)
    assert killed.returncode == -signal.SIGKILL
    assert not out.exists()  # nothing under the output name
    done = sorted(p.name for p in parts_of(out).glob("part-*.arrow"))
    assert done and done[0].startswith(f"part-{0:012d}-{BIG_CHUNK:012d}-")

    resumed = invoke("batch", source, "-o", out, "--chunk-rows", BIG_CHUNK, "--resume")
    assert resumed.exit_code == 0, resumed.output
    first = int(resumed.stderr.split("resuming at row ")[1].split(" ")[0].replace(",", ""))
    assert 0 < first < BIG_ROWS and first % BIG_CHUNK == 0
    assert f"rows: {BIG_ROWS - first:,}" in resumed.stdout  # only the missing rows were scored
    assert_same_file(out, reference)
    assert hidden_files(tmp_path) == []  # parts folder and partial file gone


def test_ctrl_c_keeps_parts_and_leaves_no_output(big, tmp_path):
    source, reference = big
    out = tmp_path / "out.parquet"
    stopped = start_and_signal(["batch", source, "-o", out, "--chunk-rows", BIG_CHUNK], parts_of(out), signal.SIGINT)
    assert stopped.returncode == 130, stopped.stderr
    assert "interrupted" in stopped.stderr and "--resume" in stopped.stderr
    assert not out.exists()
    assert hidden_files(tmp_path) == [parts_of(out).name]  # no .out.parquet.partial either
    assert not list(parts_of(out).glob(".*"))  # no half-written part

    resumed = invoke("batch", source, "-o", out, "--chunk-rows", BIG_CHUNK, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert_same_file(out, reference)


# --------------------------------------------------------------------------- in-process interruptions

SMALL_ROWS = 5_000
SMALL_CHUNK = 700


@pytest.fixture(scope="module")
def small_records():
    return hand_records(SMALL_ROWS, 5, bad=(0, 2_345, SMALL_ROWS - 1))


def interrupt_after(monkeypatch, kind: str, chunks: int) -> None:
    """Make the command's scoring function raise KeyboardInterrupt after its warm-up call and ``chunks`` chunks."""
    module = importlib.import_module(f"fastscore.{kind}")  # fastscore.score, fastscore.waits
    name = f"{kind}_batch"
    real = getattr(module, name)
    calls = 0

    def interrupted(batch, rules=None, **options):
        nonlocal calls
        calls += 1
        if calls > 1 + chunks:
            raise KeyboardInterrupt
        return real(batch, rules, **options)

    monkeypatch.setattr(module, name, interrupted)


def command(kind: str) -> str:
    return "batch" if kind == "score" else "waits-batch"


@pytest.mark.parametrize(
    ("kind", "input_ext", "output_ext"),
    [
        ("score", "parquet", "parquet"),
        ("score", "jsonl", "jsonl"),
        ("score", "csv", "csv"),
        ("waits", "parquet", "parquet"),
        ("waits", "jsonl", "csv"),
        ("waits", "csv", "jsonl"),
    ],
)
def test_resume_every_format(tmp_path, monkeypatch, small_records, kind, input_ext, output_ext):
    source = write_input(tmp_path / f"hands.{input_ext}", small_records)
    reference = tmp_path / f"reference.{output_ext}"
    assert invoke(command(kind), source, "-o", reference, "--chunk-rows", SMALL_CHUNK).exit_code == 0

    out = tmp_path / f"out.{output_ext}"
    with monkeypatch.context() as patch:
        interrupt_after(patch, kind, chunks=3)
        stopped = invoke(command(kind), source, "-o", out, "--chunk-rows", SMALL_CHUNK)
    assert stopped.exit_code == 130 and f"the first {3 * SMALL_CHUNK:,} rows are kept" in stopped.stderr
    assert not out.exists()
    assert len(list(parts_of(out).glob("part-*"))) == 3

    # Parts are named by rows, so a resumed run may read other chunk sizes.
    resumed = invoke(command(kind), source, "-o", out, "--chunk-rows", 1_234, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert f"resuming at row {3 * SMALL_CHUNK:,}" in resumed.stderr
    assert_same_file(out, reference)
    assert hidden_files(tmp_path) == []


def test_resume_sample(tmp_path, monkeypatch):
    reference = tmp_path / "reference.parquet"
    args = ["--sample", 3_000, "--seed", 4, "--chunk-rows", 500]
    assert invoke("batch", *args, "-o", reference).exit_code == 0
    out = tmp_path / "out.parquet"
    with monkeypatch.context() as patch:
        interrupt_after(patch, "score", chunks=2)
        assert invoke("batch", *args, "-o", out).exit_code == 130
    other_seed = invoke("batch", *args[:3], 5, *args[4:], "-o", out, "--resume")
    assert other_seed.exit_code == 2 and "sample.seed was 4, now 5" in other_seed.stderr
    resumed = invoke("batch", *args, "-o", out, "--resume")
    assert resumed.exit_code == 0 and "resuming at row 1,000" in resumed.stderr
    assert_same_file(out, reference)


@pytest.mark.parametrize("rows", ["sparse", "none"])
def test_resume_sparse_and_no_rows(tmp_path, monkeypatch, small_records, rows):
    """Parts of a sparse (map) or row-less output are the output's own columns; a resumed run writes the
    uninterrupted file, and one asking for another row layout is refused (its columns differ)."""
    source = write_input(tmp_path / "hands.parquet", small_records)
    reference = tmp_path / "reference.parquet"
    assert invoke("batch", source, "-o", reference, "--chunk-rows", SMALL_CHUNK, "--rows", rows).exit_code == 0
    out = tmp_path / "out.parquet"
    with monkeypatch.context() as patch:
        interrupt_after(patch, "score", chunks=3)
        assert invoke("batch", source, "-o", out, "--chunk-rows", SMALL_CHUNK, "--rows", rows).exit_code == 130
    dense = invoke("batch", source, "-o", out, "--resume")
    assert dense.exit_code == 2 and "cannot resume" in dense.stderr and "row_self_draw" in dense.stderr
    resumed = invoke("batch", source, "-o", out, "--chunk-rows", 1_234, "--rows", rows, "--resume")
    assert resumed.exit_code == 0 and f"resuming at row {3 * SMALL_CHUNK:,}" in resumed.stderr, resumed.output
    assert_same_file(out, reference)


def interrupted_run(tmp_path, monkeypatch, records, chunks=3) -> tuple[Path, Path, Path]:
    """An input, the uninterrupted output, and the output path of a run interrupted after ``chunks`` chunks."""
    source = write_input(tmp_path / "hands.parquet", records)
    reference = tmp_path / "reference.parquet"
    assert invoke("batch", source, "-o", reference, "--chunk-rows", SMALL_CHUNK).exit_code == 0
    out = tmp_path / "out.parquet"
    with monkeypatch.context() as patch:
        interrupt_after(patch, "score", chunks=chunks)
        assert invoke("batch", source, "-o", out, "--chunk-rows", SMALL_CHUNK).exit_code == 130
    return source, reference, out


def test_damaged_parts_are_redone(tmp_path, monkeypatch, small_records):
    source, reference, out = interrupted_run(tmp_path, monkeypatch, small_records, chunks=4)
    parts = sorted(parts_of(out).glob("part-*"))
    assert len(parts) == 4
    parts[2].write_bytes(parts[2].read_bytes()[:100])  # no footer: rows 1400-2100 are redone, and so is 2100-2800
    (parts_of(out) / f".part-{2800:012d}-{3500:012d}.arrow.partial").write_bytes(b"ARROW1")  # killed mid-write
    (parts_of(out) / f"part-{4200:012d}-{4900:012d}.arrow").write_bytes(b"")  # a gap before it
    resumed = invoke("batch", source, "-o", out, "--chunk-rows", SMALL_CHUNK, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "resuming at row 1,400" in resumed.stderr
    assert_same_file(out, reference)


def test_parts_of_an_earlier_layout_are_refused_and_a_changed_part_is_redone(tmp_path, monkeypatch, small_records):
    """Parts folders of layout 3 (Parquet parts, before a Parquet output's parts were Arrow IPC files) are
    not taken up; in today's layout a part whose bytes changed since it was written is redone."""
    source, reference, out = interrupted_run(tmp_path, monkeypatch, small_records)
    job = parts_of(out) / "job.json"
    manifest = json.loads(job.read_text())
    assert manifest["fastscore_parts"] == 4
    job.write_text(json.dumps({**manifest, "fastscore_parts": 3}))
    old = invoke("batch", source, "-o", out, "--chunk-rows", SMALL_CHUNK, "--resume")
    assert old.exit_code == 2 and "fastscore_parts was 3, now 4" in old.stderr and "without --resume" in old.stderr
    job.write_text(json.dumps(manifest))

    parts = sorted(parts_of(out).glob("part-*"))
    assert len(parts) == 3
    table = pa.ipc.open_file(parts[1].read_bytes()).read_all()  # rewritten whole and readable, one value changed
    changed = table.set_column(table.schema.get_field_index("payout"), "payout",
                               pa.array([v + 1 for v in table.column("payout").to_pylist()], pa.int32()))
    with pa.OSFile(str(parts[1]), "wb") as f, pa.ipc.new_file(f, changed.schema) as writer:
        writer.write_table(changed)
    resumed = invoke("batch", source, "-o", out, "--chunk-rows", SMALL_CHUNK, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert f"resuming at row {SMALL_CHUNK:,}" in resumed.stderr  # parts 2 and 3 redone
    assert_same_file(out, reference)


def test_resume_refuses_another_job(tmp_path, monkeypatch, small_records):
    source, reference, out = interrupted_run(tmp_path, monkeypatch, small_records)
    text = (Path(fastscore.__file__).parent / "rules.toml").read_text()
    marker = 'id = "nico_nico"\npoints = 40'
    assert marker in text
    house = tmp_path / "house.toml"
    house.write_text(text.replace(marker, 'id = "nico_nico"\npoints = 30'))

    other_rules = invoke("batch", source, "-o", out, "--chunk-rows", SMALL_CHUNK, "--resume", "--rules", house)
    assert other_rules.exit_code == 2
    assert "cannot resume" in other_rules.stderr and "rules was sha256:" in other_rules.stderr
    assert "without --resume" in other_rules.stderr
    other_command = invoke("waits-batch", source, "-o", out, "--resume")
    assert other_command.exit_code == 2
    assert "command was batch, now waits-batch" in other_command.stderr and "kind was score" in other_command.stderr
    write_input(source, small_records[:-1])  # the input changed since
    other_input = invoke("batch", source, "-o", out, "--resume")
    assert other_input.exit_code == 2 and "input.size was" in other_input.stderr
    write_input(source, small_records)
    # Edited in place, the size and the modification time restored: the contents differ (#23 fault 2).
    stat, data = source.stat(), source.read_bytes()
    source.write_bytes(data[:len(data) // 2] + bytes([data[len(data) // 2] ^ 1]) + data[len(data) // 2 + 1:])
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert source.stat().st_size == stat.st_size and source.stat().st_mtime_ns == stat.st_mtime_ns
    in_place = invoke("batch", source, "-o", out, "--resume")
    assert in_place.exit_code == 2 and "input.sha256 was" in in_place.stderr, in_place.stderr
    assert not out.exists() and len(list(parts_of(out).glob("part-*"))) == 3  # refusing keeps the parts
    source.write_bytes(data)

    # Without --resume the old parts are removed (and said so) and the job starts over.
    fresh = invoke("batch", source, "-o", out, "--chunk-rows", SMALL_CHUNK)
    assert fresh.exit_code == 0, fresh.output
    assert "removed" in fresh.stderr and parts_of(out).name in fresh.stderr
    assert_same_file(out, reference)
    assert hidden_files(tmp_path) == []


def test_resume_without_an_interrupted_run_starts_over(tmp_path, small_records):
    source = write_input(tmp_path / "hands.jsonl", small_records[:50])
    out = tmp_path / "out.jsonl"
    result = invoke("batch", source, "-o", out, "--resume")
    assert result.exit_code == 0 and "nothing to resume" in result.stderr
    assert len(out.read_text().splitlines()) == 50
    again = invoke("batch", source, "-o", out, "--resume")  # a finished job: done again, the same file
    assert again.exit_code == 0 and "nothing to resume" in again.stderr
    assert len(out.read_text().splitlines()) == 50


def test_resume_option_errors(tmp_path, small_records):
    source = write_input(tmp_path / "hands.parquet", small_records[:10])
    no_output = invoke("batch", source, "--resume")
    assert no_output.exit_code == 2 and "--resume needs -o OUTPUT" in no_output.stderr
    with_dask = invoke("waits-batch", source, "-o", tmp_path / "folder", "--dask", "local:1", "--resume")
    assert with_dask.exit_code == 2 and "single-machine" in with_dask.stderr


def test_a_second_run_on_the_same_output_stops_and_touches_nothing(tmp_path, small_records):
    """While one run writes OUTPUT (here a writer held open in another process), a second run
    given the same OUTPUT exits 2 naming the lock, and leaves the first run's files as they are."""
    source = write_input(tmp_path / "hands.jsonl", small_records[:50])
    out = tmp_path / "out.parquet"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom fastscore import io\n"
         f"w = io.open_writer({str(out)!r}, 'score', job={{'held': 1}})\n"
         "print('open', flush=True)\nsys.stdin.readline()\nw.abort()\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        before = sorted(p.name for p in tmp_path.iterdir())
        assert ".out.parquet.lock" in before and ".out.parquet.parts" in before
        second = invoke("batch", source, "-o", out)
        assert second.exit_code == 2
        assert "another run is writing this output" in second.stderr and ".out.parquet.lock" in second.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == before  # not even the parts folder was taken
    finally:
        holder.communicate("\n", timeout=60)
    assert holder.returncode == 0
    # The holder let go (and removed its lock file): the same command now runs.
    again = invoke("batch", source, "-o", out)
    assert again.exit_code == 0, again.output
    assert pq.read_metadata(out).num_rows == 50
    assert hidden_files(tmp_path) == []


def test_writers_of_one_output_in_one_process(tmp_path):
    out = tmp_path / "out.parquet"
    first = io.open_writer(out, "score")
    with pytest.raises(ValueError, match="another run is writing this output"):
        io.open_writer(out, "score")
    with pytest.raises(ValueError, match="another run is writing this output"):  # encode: the same lock
        io.write_encoded(fastscore.sample_winning(10, 1), out)
    first.close()
    io.open_writer(out, "score").close()  # free again once closed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.parquet"]
    assert io.write_encoded(fastscore.sample_winning(10, 1), out) == 10 and hidden_files(tmp_path) == []
    # A writer dropped without close() lets go of the lock when it is collected (a notebook's kernel
    # lives on); its partial file is left, and the next writer replaces it.
    dropped = io.open_writer(out, "score")
    del dropped
    gc.collect()
    io.open_writer(out, "score").close()
    assert hidden_files(tmp_path) == []


def test_input_damaged_midway_keeps_the_parts_and_says_so(tmp_path, small_records):
    source = write_input(tmp_path / "hands.parquet", small_records)  # row groups of 1,500
    data = bytearray(source.read_bytes())
    last_group = pq.read_metadata(source).row_group(pq.read_metadata(source).num_row_groups - 1)
    start = last_group.column(0).data_page_offset
    data[start + 16:start + 216] = bytes(200)  # inside the last row group's hand pages
    source.write_bytes(bytes(data))
    out = tmp_path / "out.parquet"
    result = invoke("batch", source, "-o", out, "--chunk-rows", SMALL_CHUNK)
    assert result.exit_code == 2
    assert "hands.parquet: cannot read the Parquet data" in result.stderr
    kept = next(line for line in result.stderr.splitlines() if line.startswith("stopped: the first "))
    assert "--resume continues from there if the input, unchanged, reads again" in kept
    rows = int(kept.removeprefix("stopped: the first ").split()[0].replace(",", ""))
    assert rows > 0 and rows % SMALL_CHUNK == 0 and parts_of(out).name in kept
    assert not out.exists() and len(list(parts_of(out).glob("part-*"))) == rows // SMALL_CHUNK


def test_bad_input_leaves_no_parts_folder(tmp_path):
    source = tmp_path / "hands.csv"
    source.write_text("tiles,win\n11m,9s\n")
    result = invoke("batch", source, "-o", tmp_path / "out.parquet")
    assert result.exit_code == 2 and "no 'hand' column" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.csv"]


# --------------------------------------------------------------------------- fastscore.io


@pytest.mark.parametrize("ext", ["parquet", "jsonl", "csv"])
@pytest.mark.parametrize("start_row", [0, 1, 699, 1_500, 4_999, 5_000, 6_000])
def test_start_row_skips_records(tmp_path, small_records, ext, start_row):
    source = write_input(tmp_path / f"hands.{ext}", small_records)
    every = [r for chunk in io.read_records(source, 1_000) for r in chunk]
    rest = list(io.read_records(source, 700, start_row=start_row))
    assert [r for chunk in rest for r in chunk] == every[start_row:]
    assert all(len(chunk) == 700 for chunk in rest[:-1])
    messages = {}
    for offset, batch in zip(range(start_row, SMALL_ROWS, 700), io.iter_batches(source, chunk_rows=700,
                                                                                start_row=start_row)):
        messages.update({offset + i: m for i, m in batch.messages.items()})
    # numbered from the file's first row: rows of a Parquet file, the file's lines of a JSON lines file (from
    # line 1, a blank line after every record i with i % 500 == 3: write_input) or a CSV file (after its header)
    def where(i: int) -> str:
        if ext == "parquet":
            return f"row {i}"
        if ext == "csv":
            return f"hands.csv line {i + 2}"
        return f"hands.jsonl line {i + 1 + sum(1 for j in range(i) if j % 500 == 3)}"

    assert all(m.startswith(where(i) + ": ") for i, m in messages.items())
    if ext == "jsonl" and start_row <= 7:
        assert messages[7].startswith("hands.jsonl line 9: not valid JSON")  # after the blank line 5
    assert (SMALL_ROWS - 1 in messages) == (start_row < SMALL_ROWS)


def test_start_row_must_be_a_count(tmp_path, small_records):
    source = write_input(tmp_path / "hands.jsonl", small_records[:10])
    with pytest.raises(ValueError, match="start_row"):
        next(io.read_records(source, start_row=-1))


def test_writer_with_job_api(tmp_path, small_records):
    batch = fastscore.HandBatch.from_records(small_records[:2_000])
    chunks = [fastscore.score_batch(batch.take(slice(s, s + 300))) for s in range(0, 2_000, 300)]
    plain = tmp_path / "plain.parquet"
    with io.open_writer(plain) as writer:
        for result in chunks:
            writer.write(result, writer.rows_written)

    out = tmp_path / "out.parquet"
    job = {"input": "hands", "n": 2_000}
    with pytest.raises(RuntimeError), io.open_writer(out, job=job) as writer:
        assert writer.parts_path == tmp_path / ".out.parquet.parts" and writer.resumed_rows == 0
        for result in chunks[:3]:
            writer.write(result, writer.rows_written)
        raise RuntimeError("stop")
    assert not out.exists() and (parts_of(out) / "job.json").is_file()

    with pytest.raises(ValueError, match=r"cannot resume.*n was 2000, now 1999"):
        io.open_writer(out, job={**job, "n": 1_999}, resume=True)
    with pytest.raises(ValueError, match="JSON"):
        io.open_writer(out, job={"when": object()}, resume=True)
    with pytest.raises(ValueError, match="needs the job"):
        io.open_writer(out, resume=True)
    with io.open_writer(out, job=job, resume=True) as writer:
        assert writer.resumed_rows == writer.rows_written == 900 and not writer.removed_parts
        with pytest.raises(ValueError, match="expected first row 900"):
            writer.write(chunks[3], 0)
        for result in chunks[3:]:
            writer.write(result, writer.rows_written)
    assert_same_file(out, plain)  # parts joined = written directly
    assert hidden_files(tmp_path) == []

    # Stopped after its last part (say, killed while joining): resuming only joins.
    out.unlink()
    with pytest.raises(RuntimeError), io.open_writer(out, job=job) as writer:
        for result in chunks:
            writer.write(result, writer.rows_written)
        raise RuntimeError("stop")
    out.with_name(".out.parquet.partial").write_bytes(b"PAR1")  # a half-joined file
    with io.open_writer(out, job=job, resume=True) as writer:
        assert writer.rows_written == 2_000
    assert_same_file(out, plain)
    assert hidden_files(tmp_path) == []

    # An interrupted writer with no part yet leaves nothing behind.
    with pytest.raises(RuntimeError), io.open_writer(tmp_path / "empty.jsonl", job=job):
        raise RuntimeError("stop")
    assert hidden_files(tmp_path) == []
    # An empty job is a valid (empty) file.
    with io.open_writer(tmp_path / "empty.parquet", job=job):
        pass
    assert pq.read_table(tmp_path / "empty.parquet").num_rows == 0
    assert np.array_equal(pq.read_table(plain).column("total").to_numpy(),
                          np.concatenate([r.total for r in chunks]))
