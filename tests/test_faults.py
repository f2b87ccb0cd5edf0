"""Faults a job must survive without losing or mixing data (issue #23; docs/faults.md).

Each test reproduces one fault of the sweep: a carriage return inside a JSON lines record, an
input edited or grown while a job reads it, a flipped bit in a Parquet file, a job out of memory
or disk, Ctrl-C pressed twice, two jobs on one output.  The resume tests of an input edited in
place are in tests/test_resume.py (``test_resume_refuses_another_job``).
"""

from __future__ import annotations

import errno
import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import fastscore
from fastscore import io, jobs
from fastscore.cli import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def records():
    return io.hand_records(fastscore.sample_winning(3_000, 23))


def write_jsonl(path: Path, records, ends=None) -> Path:
    """``records`` as JSON lines; ``ends`` maps a row to the bytes that end its line (default ``\\n``)."""
    ends = ends or {}
    path.write_bytes(b"".join(json.dumps(r).encode() + ends.get(i, b"\n") for i, r in enumerate(records)))
    return path


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().split(b"\n") if line]


def fail_on_call(monkeypatch, call: int, action, kind: str = "score") -> None:
    """Run ``action()`` on the ``call``-th call of the command's scoring function (the first is the
    warm-up hand), then score as usual."""
    module = importlib.import_module(f"fastscore.{kind}")
    name = f"{kind}_batch"
    real = getattr(module, name)
    calls = 0

    def wrapped(batch, rules=None):
        nonlocal calls
        calls += 1
        if calls == call:
            action()
        return real(batch, rules)

    monkeypatch.setattr(module, name, wrapped)


# --------------------------------------------------------------------------- JSON lines records


def test_carriage_return_inside_a_json_record_keeps_one_row_per_record(tmp_path, records):
    """Fault 1: a CR is JSON whitespace; lines end at LF only (a CRLF ending is fine too)."""
    clean = write_jsonl(tmp_path / "clean.jsonl", records)
    assert invoke("batch", clean, "-o", tmp_path / "clean.out.jsonl").exit_code == 0
    expected = read_jsonl(tmp_path / "clean.out.jsonl")

    lines = [json.dumps(r).encode() for r in records]
    lines[5] = lines[5].replace(b", ", b",\r", 1)  # a CR inside record 5, as in the sweep
    lines[6] = lines[6].replace(b"{", b"{\r", 1)
    assert b"\r" in lines[5] and b"\r" in lines[6]
    dirty = tmp_path / "dirty.jsonl"
    dirty.write_bytes(b"".join(line + (b"\r\n" if i % 3 == 0 else b"\n") for i, line in enumerate(lines)))
    result = invoke("batch", dirty, "-o", tmp_path / "dirty.out.jsonl")
    assert result.exit_code == 0, result.output
    got = read_jsonl(tmp_path / "dirty.out.jsonl")
    assert len(got) == len(records)
    assert got == expected
    assert all(row["error"] is None for row in got)


def test_carriage_return_record_of_the_sweep_scores_as_without(tmp_path):
    path = tmp_path / "cr.jsonl"
    path.write_bytes(b'{"hand":"789m456s1122244666z",\r"win":"1z"}\n')
    (batch,) = io.iter_batches(path)
    (row,) = fastscore.score_batch(batch).to_records()
    # 789m 456s EEE(won on 1z) SSS GGG, NN eyes, discard win, seat and round East:
    # concealed_hand 5 + no_flowers 1 + dragon_pong 2 + little_three_winds 15 = 23 points;
    # + mahjong_base 5 = total 28; + east_wins 5 = payout 33.
    assert row["error"] is None and row["points"] == 23 and row["total"] == 28 and row["payout"] == 33
    one = fastscore.score("789m456s1122244666z", "1z")
    assert (one.points, one.total, one.payout) == (23, 28, 33)


def test_first_record_that_is_not_an_object_is_flagged_and_the_rest_scored(tmp_path, records):
    path = tmp_path / "hands.jsonl"
    path.write_bytes(b"[1, 2]\n" + b"".join(json.dumps(r).encode() + b"\n" for r in records[:50]))
    result = invoke("batch", path, "-o", tmp_path / "out.jsonl")
    assert result.exit_code == 0, result.output
    got = read_jsonl(tmp_path / "out.jsonl")
    assert len(got) == 51
    assert got[0]["error"] == "hands.jsonl line 1: not a JSON object (a JSON array)"
    reference = write_jsonl(tmp_path / "ref.jsonl", records[:50])
    assert invoke("batch", reference, "-o", tmp_path / "ref.out.jsonl").exit_code == 0
    assert [{**r, "error": None} for r in got[1:]] == read_jsonl(tmp_path / "ref.out.jsonl")


def test_one_line_json_array_is_still_an_array_of_records(tmp_path, records):
    path = tmp_path / "hands.json"
    path.write_text(json.dumps(records[:3]) + "\n")
    assert [len(b) for b in io.iter_batches(path)] == [3]


# --------------------------------------------------------------------------- inputs that change


def test_input_that_grows_while_read_is_not_written(tmp_path, monkeypatch, records):
    source = write_jsonl(tmp_path / "hands.jsonl", records)
    out = tmp_path / "out.jsonl"

    def grow():
        with open(source, "ab") as f:
            f.write(json.dumps(records[0]).encode() + b"\n")

    fail_on_call(monkeypatch, 3, grow)
    result = invoke("batch", source, "-o", out, "--chunk-rows", 700)
    assert result.exit_code == 2
    assert "the input changed while the job read it" in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists()


# --------------------------------------------------------------------------- Parquet bit flips


def test_bit_flips_in_a_parquet_file_fastscore_wrote_are_caught(tmp_path):
    """Fault 5: results written with their input read back as input; a flipped bit in a page either
    stops the job naming the file and row group, or changes nothing (a byte no reader uses)."""
    source = tmp_path / "hands.parquet"
    assert invoke("batch", "--sample", 4_000, "--seed", 5, "-o", source).exit_code == 0
    reference = tmp_path / "reference.parquet"
    assert invoke("batch", source, "-o", reference).exit_code == 0
    expected = pq.read_table(reference)
    data = source.read_bytes()
    footer = pq.read_metadata(source).serialized_size + 8
    caught = 0
    for k in range(12):
        position = 4 + (k * 7919 * 31) % (len(data) - footer - 4)
        flipped = tmp_path / f"flipped{k}.parquet"
        flipped.write_bytes(data[:position] + bytes([data[position] ^ (1 << (k % 8))]) + data[position + 1:])
        out = tmp_path / f"out{k}.parquet"
        result = invoke("batch", flipped, "-o", out)
        if result.exit_code == 0:
            assert pq.read_table(out).equals(expected), f"bit flip at byte {position} changed results"
        else:
            assert result.exit_code == 2, result.output
            assert f"{flipped}: cannot read the Parquet data of row group" in result.stderr
            assert not out.exists()
            caught += 1
    assert caught >= 6


# --------------------------------------------------------------------------- out of memory, out of disk


def test_out_of_memory_stops_like_a_full_disk(tmp_path, monkeypatch, records):
    source = write_jsonl(tmp_path / "hands.jsonl", records)
    reference, out = tmp_path / "reference.jsonl", tmp_path / "out.jsonl"
    assert invoke("batch", source, "-o", reference, "--chunk-rows", 700).exit_code == 0

    def no_memory():
        raise MemoryError

    with monkeypatch.context() as patch:
        fail_on_call(patch, 4, no_memory)  # after the warm-up hand and two chunks
        result = invoke("batch", source, "-o", out, "--chunk-rows", 700)
    assert result.exit_code == 2
    assert "stopped: the first 1,400 rows are kept" in result.stderr
    assert "error: out of memory" in result.stderr
    assert "Traceback" not in result.output and not out.exists()
    resumed = invoke("batch", source, "-o", out, "--chunk-rows", 700, "--resume")
    assert resumed.exit_code == 0 and "resuming at row 1,400" in resumed.stderr
    assert out.read_bytes() == reference.read_bytes()


def test_full_disk_names_the_path_that_filled(tmp_path, monkeypatch, records):
    source = write_jsonl(tmp_path / "hands.jsonl", records)
    out = tmp_path / "out.jsonl"
    real = Path.write_bytes

    def full(self, data):
        if self.name.startswith(".part-000000001400"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    result = invoke("batch", source, "-o", out, "--chunk-rows", 700)
    assert result.exit_code == 2
    part = f".part-{1400:012d}-{2100:012d}.jsonl.partial"
    assert f"{part}: No space left on device" in result.stderr
    assert "about 4 times its output's size" in result.stderr
    assert "stopped: the first 1,400 rows are kept" in result.stderr and not out.exists()


# --------------------------------------------------------------------------- two jobs, one output


def test_a_job_takes_the_output_lock_before_its_slow_start(tmp_path, monkeypatch, records):
    source = write_jsonl(tmp_path / "hands.jsonl", records[:100])
    out = tmp_path / "out.jsonl"
    seen = []
    real = jobs.warm

    def warm(kind, table):  # while this job loads its kernels, a second one stops at once
        from fastscore._lock import OutputLock

        try:
            OutputLock(out).release()
            seen.append("free")
        except ValueError as exc:
            seen.append(str(exc))
        return real(kind, table)

    monkeypatch.setattr(jobs, "warm", warm)
    assert invoke("batch", source, "-o", out).exit_code == 0
    assert len(seen) == 1 and "another run is writing this output" in seen[0]


# --------------------------------------------------------------------------- Ctrl-C


def job_with_a_part(out: Path) -> subprocess.Popen:
    """``fastscore batch --sample`` writing ``out`` in a subprocess, once its first part is written."""
    command = [sys.executable, "-m", "fastscore.cli", "batch", "--sample", "2000000", "--chunk-rows", "20000",
               "-o", str(out)]
    env = {**os.environ, "PYTHONPATH": str(Path(fastscore.__file__).parents[1])}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    parts = out.with_name(f".{out.name}.parts")
    deadline = time.monotonic() + 240
    while not list(parts.glob("part-*")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    assert process.poll() is None, process.communicate()
    return process


def stop_lines(stderr: str) -> list[str]:
    """The lines of a stopped job's stderr but the start-up notices (``fastscore: first run: compiling ...``
    on a cold kernel cache, ``fastscore: built ... tables``), which come before anything is stopped."""
    return [line for line in stderr.strip().splitlines() if not line.startswith("fastscore: ")]


def test_ctrl_c_pressed_twice_prints_one_line_and_exits_130(tmp_path):
    out = tmp_path / "out.parquet"
    process = job_with_a_part(out)
    process.send_signal(signal.SIGINT)
    time.sleep(0.01)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    text = stderr.decode()
    assert process.returncode == 130, text
    assert "Traceback" not in text and "Exception ignored" not in text, text
    assert "interrupted" in text and len(stop_lines(text)) == 1, text
    assert not out.exists()


def test_a_second_ctrl_c_after_the_stop_line_adds_no_line():
    """The race CI hit once: the second Ctrl-C came just after the job wrote its line ("interrupted: the
    first 60,000 rows are kept ..."), and the second signal's "interrupted" made it two. Here the second
    signal comes while the line is written, every time: it waits, then ends the process with no line."""
    # Another thread runs, as in a job (numba's pool, the reader, the writer): a signal may be delivered
    # to it, and Python then runs the handler in the main thread wherever that is.
    script = (
        "import os, signal, sys, threading, time\n"
        "from fastscore._interrupts import stop_line, stop_signals\n"
        "threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
        "with stop_signals():\n"
        "    try:\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "        time.sleep(5)\n"
        "    except KeyboardInterrupt:\n"
        "        with stop_line():\n"
        "            sys.stderr.write('interrupted: the parts are kept\\n'); sys.stderr.flush()\n"
        "            os.kill(os.getpid(), signal.SIGINT)\n"
        "            time.sleep(0.3)\n"
        "sys.stderr.write('not reached\\n')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(fastscore.__file__).parents[1])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, env=env, timeout=60)
    assert done.returncode == 130
    assert done.stderr.decode().splitlines() == ["interrupted: the parts are kept"]


# --------------------------------------------------------------------------- found by the fault sweep after the fixes


def test_a_footer_bit_flip_that_renames_a_column_is_caught(tmp_path):
    """Page checksums do not cover the Parquet footer: fastscore writes a digest of its columns there.
    A flip that renames ``round`` would otherwise read every row as round East."""
    source = tmp_path / "hands.parquet"
    assert invoke("batch", "--sample", 2_000, "--seed", 3, "-o", source).exit_code == 0
    data = source.read_bytes()
    footer = len(data) - 8 - pq.read_metadata(source).serialized_size
    at = data.index(b"round", footer)
    flipped = tmp_path / "flipped.parquet"
    flipped.write_bytes(data[:at + 1] + b"n" + data[at + 2:])  # 'round' -> 'rnund' (o ^ n = 1 bit)
    assert (ord("o") ^ ord("n")) == 1
    assert "rnund" in pq.read_schema(flipped).names  # pyarrow reads it as a renamed column
    result = invoke("batch", flipped, "-o", tmp_path / "out.parquet")
    assert result.exit_code == 2
    assert f"{flipped}: its column names or types differ from those it was written with" in result.stderr
    assert not (tmp_path / "out.parquet").exists()


def test_a_dictionary_index_past_its_dictionary_is_refused_not_read():
    import pyarrow as pa

    indices = pa.array([0, 1, 0, 7], pa.int32())  # 7: past the two values, as a damaged page can give
    wins = pa.DictionaryArray.from_buffers(pa.dictionary(pa.int32(), pa.string()), 4, indices.buffers(),
                                           dictionary=pa.array(["9s", "1z"]))
    table = pa.table({"hand": ["11m99m77p11s9s EE RR 333p"] * 4, "win": wins})
    with pytest.raises(ValueError, match="row 3: a dictionary index 7 past the column's 2 values"):
        fastscore.HandBatch.from_arrow(table)


@pytest.mark.parametrize("layout", ["one line", "lines"])
def test_a_byte_order_mark_before_a_json_array(tmp_path, records, layout):
    path = tmp_path / "hands.json"
    text = json.dumps(records[:6], indent=None if layout == "one line" else 1)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode() + b"\n")
    (batch,) = io.iter_batches(path)
    assert len(batch) == 6 and not batch.error.any()


def test_sigterm_stops_a_job_as_ctrl_c_does(tmp_path):
    out = tmp_path / "out.parquet"
    process = job_with_a_part(out)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    text = stderr.decode()
    assert process.returncode == 130, text
    assert stop_lines(text)[0].startswith("interrupted: the first") and len(stop_lines(text)) == 1, text
    assert not out.exists() and list((tmp_path / ".out.parquet.parts").glob("part-*"))


def test_encode_refuses_an_input_that_changes_while_read(tmp_path, monkeypatch, records):
    source = write_jsonl(tmp_path / "hands.jsonl", records)
    real = io.iter_chunks  # what encode reads with (its --keep columns too)

    def growing(*args, **kwargs):
        for k, chunk in enumerate(real(*args, **kwargs)):
            if k == 1:
                with open(source, "ab") as f:
                    f.write(json.dumps(records[0]).encode() + b"\n")
            yield chunk

    monkeypatch.setattr(io, "iter_chunks", growing)
    out = tmp_path / "enc.parquet"
    result = invoke("encode", source, "-o", out, "--chunk-rows", 700)
    assert result.exit_code == 2 and "the input changed while the job read it" in result.stderr
    assert not out.exists()
