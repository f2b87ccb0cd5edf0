"""A Dask job whose client is killed mid-job leaves no folder that reads as a complete dataset
(issue #23, "Nothing lost under faults"): the output name is absent, or an older output is whole.

The client runs in a subprocess (its own session, so that the test can end it
and its worker process together) on a one-worker ``LocalCluster``; once a
part exists in the job's hidden ``.out.partial-<token>`` folder the client is
sent the signal.  A rerun with ``overwrite=True`` then writes every row, in
order, and removes what the killed run left.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fastscore import io, sample_winning
from fastscore.dask import score_parquet
from fastscore.dask.cluster import _warm

ROOT = Path(__file__).resolve().parents[1]
ROWS = 6_000
PARTITION_ROWS = 250  # 24 tasks, each stretched to >= 0.25 s: the job lasts seconds, the kill lands mid-job

#: The client: score_parquet on a one-worker LocalCluster, each task slowed by its summarize.
CLIENT = """
import sys, time
from distributed import Client
from fastscore.dask import local_cluster, score_parquet


def slow(result):
    time.sleep(0.25)
    return len(result)


if __name__ == "__main__":
    with local_cluster(1, dashboard_address=":0") as cluster, Client(cluster, set_as_default=False) as client:
        score_parquet(sys.argv[1], sys.argv[2], client=client, partition_rows=int(sys.argv[3]), overwrite=True,
                      summarize=slow)
    print("done", flush=True)
"""


def _dataset(folder: Path) -> dict:
    """The folder's files (name -> bytes) and its table as a plain reader reads it."""
    return {"files": {p.name: p.read_bytes() for p in sorted(folder.iterdir())}, "table": pq.read_table(folder)}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """The input, the rows a complete run writes (in this process), and an older output of another input."""
    _warm()  # fill numba's disk cache here, so that the worker only loads
    folder = tmp_path_factory.mktemp("dask-interrupted")
    hands = folder / "hands.parquet"
    pq.write_table(pa.Table.from_pylist(io.hand_records(sample_winning(ROWS, seed=21))), hands,
                   row_group_size=PARTITION_ROWS)
    other = folder / "other.parquet"
    pq.write_table(pa.Table.from_pylist(io.hand_records(sample_winning(700, seed=22))), other)
    whole = score_parquet(hands, folder / "whole", partition_rows=PARTITION_ROWS)
    score_parquet(other, folder / "old", partition_rows=300)
    return {"hands": hands, "whole": pq.read_table(whole.output), "old": folder / "old"}


def _parts_written(out: Path) -> list[Path]:
    """The job's parts written so far (24 parts: ``part.NN.parquet``), in the hidden folder or in ``out``."""
    return [*out.parent.glob(f".{out.name}.partial-*/part.[0-9][0-9].parquet"), *out.glob("part.[0-9][0-9].parquet")]


def _kill_client_mid_job(hands: Path, out: Path, sig: signal.Signals) -> None:
    """Start the client writing ``out``; send it ``sig`` once a part is written in the hidden folder."""
    script = out.parent / "client.py"
    script.write_text(CLIENT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, str(script), str(hands), str(out), str(PARTITION_ROWS)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not _parts_written(out):
            assert proc.poll() is None, f"the client ended before writing a part: {proc.communicate()}"
            assert time.monotonic() < deadline, "no part written in 300 s"
            time.sleep(0.02)
        assert proc.poll() is None, "the job finished before the client could be killed"
        os.kill(proc.pid, sig)
        stdout, _ = proc.communicate(timeout=120)
        assert proc.returncode != 0 and b"done" not in stdout
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the worker process and anything else the client started
        except ProcessLookupError:
            pass
        proc.wait()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_client_killed_mid_job_leaves_the_old_output_whole(inputs, tmp_path, sig):
    out = tmp_path / "out"
    shutil.copytree(inputs["old"], out)
    before = _dataset(out)
    _kill_client_mid_job(inputs["hands"], out, sig)
    after = _dataset(out)
    assert after["files"] == before["files"] and "_SUCCESS" in after["files"]  # the old dataset, whole
    assert after["table"].equals(before["table"])
    done = score_parquet(inputs["hands"], out, partition_rows=PARTITION_ROWS, overwrite=True)  # a rerun
    assert pq.read_table(out).equals(inputs["whole"]) and done.rows == ROWS
    assert (out / "_SUCCESS").exists()
    assert not list(tmp_path.glob(".out.*"))  # the killed run's hidden folder is gone, and the lock


def test_client_killed_mid_first_job_leaves_no_output(inputs, tmp_path):
    out = tmp_path / "out"
    _kill_client_mid_job(inputs["hands"], out, signal.SIGKILL)
    assert not out.exists()  # no folder a reader could take for the dataset
    assert list(tmp_path.glob(".out.partial-*/part.*.parquet"))  # the parts written went to the hidden folder
    score_parquet(inputs["hands"], out, partition_rows=PARTITION_ROWS)  # no overwrite needed: there is no output
    assert pq.read_table(out).equals(inputs["whole"])
    assert not list(tmp_path.glob(".out.*"))
