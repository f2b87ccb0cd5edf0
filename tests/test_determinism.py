"""Determinism: the same input and rule table give byte-identical result files whatever the
thread count and the chunk size, and the same results whatever the order of a hand's tiles.

The thread counts need fresh processes (``NUMBA_NUM_THREADS`` is read when numba is
imported): one subprocess per count runs ``batch`` and ``waits-batch`` to Parquet and
JSON lines at two chunk sizes, in-process through the command line's ``app``.  The
chunk sizes straddle ``PARALLEL_MIN_ROWS``, so the serial and parallel kernels are
compared too.  Parquet row groups hold ``fastscore.io.ROW_GROUP_ROWS`` rows whatever
the chunk size; a test with a small row-group size checks the buffering across chunks.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import fastscore
from fastscore import io
from fastscore._jit import PARALLEL_MIN_ROWS
from fastscore.waits import waits_batch

ROWS = 8_000
CHUNKS = (500, 65_536)  # below and above PARALLEL_MIN_ROWS: the serial and the parallel kernels
COMMANDS = ("batch", "waits-batch")
FORMATS = ("parquet", "jsonl")
BAD_HAND = "11m99m77p11s9s EE RR 333x"

# Run in a subprocess: argv = input, output folder; NUMBA_NUM_THREADS set by the test.
SCRIPT = """
import sys
import numba
from fastscore.cli import app

source, folder = sys.argv[1:]
for command in {commands!r}:
    for fmt in {formats!r}:
        for chunk in {chunks!r}:
            out = f"{{folder}}/{{command}}-{{chunk}}.{{fmt}}"
            status = app([command, source, "-o", out, "--chunk-rows", str(chunk)], standalone_mode=False)
            assert not status, (command, fmt, chunk, status)
print("threads", numba.get_num_threads())
""".format(commands=COMMANDS, formats=FORMATS, chunks=CHUNKS)


def records(n: int, seed: int, bad=()) -> list[dict]:
    found = io.hand_records(fastscore.sample_winning(n, seed))
    for i in bad:
        found[i]["hand"] = BAD_HAND
    return found


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[int, Path]:
    """Folder of result files per thread count (1 and 2)."""
    assert CHUNKS[0] < PARALLEL_MIN_ROWS <= CHUNKS[1]
    fastscore.score_batch(fastscore.sample_winning(10, 0))  # load (or compile and cache) the kernels
    waits_batch(fastscore.sample_ready(10, 0))
    root = tmp_path_factory.mktemp("determinism")
    source = root / "hands.parquet"
    pq.write_table(pa.Table.from_pylist(records(ROWS, 21, bad=(3, 4_321, ROWS - 1))), source, row_group_size=3_000)
    folders = {}
    for threads in (1, 2):
        folder = root / f"threads-{threads}"
        folder.mkdir()
        env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
        done = subprocess.run([sys.executable, "-c", SCRIPT, str(source), str(folder)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert f"threads {threads}" in done.stdout
        folders[threads] = folder
    return folders


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", COMMANDS)
def test_same_bytes_for_any_thread_count_and_chunk_size(outputs, command, fmt):
    files = {(threads, chunk): folder / f"{command}-{chunk}.{fmt}"
             for threads, folder in outputs.items() for chunk in CHUNKS}
    first = files[1, CHUNKS[0]].read_bytes()
    assert first
    for key, path in files.items():
        assert path.read_bytes() == first, f"{path.name} with {key[0]} thread(s) differs"


def test_outputs_hold_every_row(outputs):
    folder = outputs[2]
    table = pq.read_table(folder / f"batch-{CHUNKS[0]}.parquet")
    assert table.num_rows == ROWS
    errors = table.column("error").to_pylist()
    assert [i for i, e in enumerate(errors) if e] == [3, 4_321, ROWS - 1]
    assert errors[4_321].startswith("row 4321: ")  # numbered over the file, not the chunk
    lines = (folder / f"waits-batch-{CHUNKS[1]}.jsonl").read_text().splitlines()
    assert len(lines) == ROWS and json.loads(lines[ROWS - 1])["error"].startswith(f"row {ROWS - 1}: ")


@pytest.mark.parametrize("kind", ["score", "waits"])
def test_parquet_row_groups_do_not_follow_chunks(tmp_path, monkeypatch, kind):
    monkeypatch.setattr(io.writer, "ROW_GROUP_ROWS", 1_000)  # read by the Parquet sink
    batch = fastscore.HandBatch.from_records(records(4_321, 3, bad=(7,)), require_win=kind == "score")
    process = fastscore.score_batch if kind == "score" else waits_batch
    written = []
    for chunk in (7, 333, 1_000, 1_001, 2_500, 4_321):
        path = tmp_path / f"{chunk}.parquet"
        with io.open_writer(path, kind, with_input=True) as writer:
            for start in range(0, len(batch), chunk):
                part = batch.take(slice(start, start + chunk))
                writer.write(process(part), start, batch=part)
        written.append(path.read_bytes())
    assert all(data == written[0] for data in written)
    meta = pq.read_metadata(tmp_path / "333.parquet")
    assert [meta.row_group(g).num_rows for g in range(meta.num_row_groups)] == [1_000] * 4 + [321]


# --------------------------------------------------------------------------- tile order

_GROUP = re.compile(r"\[[^\]]*\]|\([^)]*\)|[^\s\[\]()]+")
_SUIT_RUN = re.compile(r"(\d+)([mpsz])")


def reordered(hand: str, rng: np.random.Generator) -> str:
    """The same tiles, written differently: one group per suit, groups in reverse order,
    digits shuffled within each group and within each bracketed set."""
    concealed, declared = [], []
    for group in _GROUP.findall(hand):
        if group[0] in "[(":
            (digits, suit), = _SUIT_RUN.findall(group)
            declared.append(f"{group[0]}{''.join(rng.permutation(list(digits)))}{suit}{group[-1]}")
        else:
            concealed += [''.join(rng.permutation(list(digits))) + suit for digits, suit in _SUIT_RUN.findall(group)]
    return " ".join(concealed[::-1] + declared[::-1])


def test_reordered_example():
    hand = "123m45p55z789s [678m] (2222s)"
    text = reordered(hand, np.random.default_rng(0))
    groups = text.split()
    assert [sorted(g) for g in groups[:4]] == [sorted("789s"), sorted("55z"), sorted("45p"), sorted("123m")]
    assert groups[4] == "(2222s)" and sorted(groups[5]) == sorted("[678m]")
    both = fastscore.HandBatch.from_records([{"hand": hand, "win": "3p"}, {"hand": text, "win": "3p"}])
    assert not both.error.any()
    assert np.array_equal(both.concealed[0], both.concealed[1])
    declared = [sorted(map(tuple, row.tolist())) for row in both.declared]  # kept in written order
    assert declared[0] == declared[1]


@pytest.mark.parametrize("seed", [1, 2])
def test_tile_order_does_not_change_results(tmp_path, seed):
    rng = np.random.default_rng(seed)
    original = records(3_000, seed)
    shuffled = [{**r, "hand": reordered(r["hand"], rng)} for r in original]
    assert sum(a["hand"] != b["hand"] for a, b in zip(original, shuffled)) > 2_900
    batches = [fastscore.HandBatch.from_records(rs) for rs in (original, shuffled)]
    assert not batches[1].error.any(), batches[1].messages
    assert np.array_equal(batches[0].concealed, batches[1].concealed)

    scores = [fastscore.score_batch(b) for b in batches]
    for name in ("is_win", "shape", "row_points", "points", "chicken", "total", "legal", "payout", "error"):
        assert np.array_equal(getattr(scores[0], name), getattr(scores[1], name)), name
    waits = [waits_batch(b) for b in batches]
    assert list(waits[0].to_records()) == list(waits[1].to_records())
    for kind, results in (("score", scores), ("waits", waits)):
        files = []
        for i, result in enumerate(results):
            with io.open_writer(tmp_path / f"{kind}-{i}.parquet", kind) as writer:
                writer.write(result, 0)
            files.append((tmp_path / f"{kind}-{i}.parquet").read_bytes())
        assert files[0] == files[1]
