"""fastscore.dask on a local multi-process cluster: the same rows as the single-machine job, a worker
killed mid-job, partition planning, the optional import and the ``--dask`` command line.

The clusters are ``LocalCluster(processes=True)`` with two worker processes of
one thread each.  The test process loads (or compiles) every kernel first, so
that the workers load them from numba's on-disk cache instead of compiling
(about a second per worker instead of tens).  The single-machine reference is
the path of ``fastscore batch INPUT -o OUT.parquet``: ``io.iter_batches``,
``score_batch``/``waits_batch``, ``io.open_writer``.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from distributed import Client
from click.testing import CliRunner

import fastscore
from fastscore import io, sample_ready, sample_winning, score_batch, waits_batch
from fastscore.cli import app
from fastscore.dask import (
    Partition,
    local_cluster,
    plan_partitions,
    score_parquet,
    waits_parquet,
    warm_workers,
)
from fastscore.dask import survey as dask_survey
from fastscore.dask.cluster import _warm
from fastscore.enumerate import enumerate_hands
from fastscore.survey import survey

SCORE_ROWS = 200_000
WAITS_ROWS = 120_000
FAULT_ROWS = 12_000
ROW_GROUP = 20_000  # several partitions per file, some packed, some split
FAULT_ROW_GROUP = 2_000
BAD = {7: {"hand": "11m99m77p11s9s EE RR 333x", "win": "9s"},  # unknown letter
       SCORE_ROWS - 3: {"hand": "1111m", "win": "1m"}}         # five 1m, too few tiles


def _write_input(path: Path, batch, bad=None, row_group: int = ROW_GROUP) -> Path:
    """The batch's rows as input records (io.hand_records), ``bad`` records put in at their row numbers."""
    records = io.hand_records(batch)
    for row, record in (bad or {}).items():
        records[row] = {**records[row], **record}
    pq.write_table(pa.Table.from_pylist(records), path, row_group_size=row_group)
    return path


def _single_machine(path: Path, kind: str, out: Path, rules=None) -> pa.Table:
    """The single-machine job (as ``fastscore batch``) written to one Parquet file and read back."""
    process = score_batch if kind == "score" else waits_batch
    with io.open_writer(out, kind) as writer:
        for batch in io.iter_batches(path, require_win=kind == "score"):
            writer.write(process(batch, rules), writer.rows_written)
    return pq.read_table(out)


def _dataset(paths) -> pa.Table:
    """The part files read in the order given."""
    return pa.concat_tables([pq.read_table(p) for p in paths])


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Inputs and their single-machine results, built once."""
    _warm()  # fill numba's disk cache here, so that the workers only load
    folder = tmp_path_factory.mktemp("dask-data")
    score_in = _write_input(folder / "winning.parquet", sample_winning(SCORE_ROWS, seed=11), BAD)
    waits_in = _write_input(folder / "ready.parquet", sample_ready(WAITS_ROWS, seed=12))
    fault_in = _write_input(folder / "fault.parquet", sample_winning(FAULT_ROWS, seed=13), row_group=FAULT_ROW_GROUP)
    return {
        "score_in": score_in,
        "waits_in": waits_in,
        "fault_in": fault_in,
        "score": _single_machine(score_in, "score", folder / "score-single.parquet"),
        "waits": _single_machine(waits_in, "waits", folder / "waits-single.parquet"),
        "fault": _single_machine(fault_in, "score", folder / "fault-single.parquet"),
    }


@pytest.fixture(scope="module")
def client(data):
    """A two-process cluster for the module (not the default client: ``client=None`` means this process)."""
    with local_cluster(2, dashboard_address=":0") as cluster, Client(cluster, set_as_default=False) as c:
        warm_workers(c)
        yield c


# --------------------------------------------------------------------------- same rows as one machine


def test_score_matches_single_machine(data, client, tmp_path):
    done = score_parquet(data["score_in"], tmp_path / "out", client=client, partition_rows=50_000)
    parts = sorted((tmp_path / "out").glob("*"))
    assert parts[0].name == "_SUCCESS" and parts[0].stat().st_size == 0  # the dataset is complete
    assert [p.name for p in done.paths] == [p.name for p in parts[1:]]  # nothing else, names sort in order
    assert len(done.paths) == 5 and done.paths[0].name == "part.0.parquet"  # row groups packed by two
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # nothing left beside it
    got = _dataset(done.paths)
    assert got.schema.equals(data["score"].schema)
    assert got.equals(data["score"])
    assert pq.read_table(tmp_path / "out").equals(got)  # a plain reader sees the input order too
    assert done.rows == SCORE_ROWS and done.bad_rows == len(BAD)
    errors = got.column("error").to_pylist()
    # messages count rows over the whole input, as on one machine
    assert errors[7].startswith("row 7: ") and errors[SCORE_ROWS - 3].startswith(f"row {SCORE_ROWS - 3}: ")


def test_waits_matches_single_machine(data, client, tmp_path):
    done = waits_parquet(data["waits_in"], tmp_path / "out", client=client, partition_rows=40_000)
    got = _dataset(done.paths)
    assert got.schema.equals(data["waits"].schema)
    assert got.equals(data["waits"])
    assert done.rows == WAITS_ROWS and done.bad_rows == 0
    assert min(got.column("n_waits").to_pylist()) >= 1  # ready hands


def test_encoded_input_matches_single_machine(data, client, tmp_path):
    """A file of encoded hands (fastscore encode) scores to the same rows, bad rows included."""
    encoded = tmp_path / "winning.enc.parquet"
    io.write_encoded(io.iter_batches(data["score_in"]), encoded)
    done = score_parquet(encoded, tmp_path / "out", client=client, partition_rows=70_000)
    assert _dataset(done.paths).equals(data["score"])
    assert done.rows == SCORE_ROWS and done.bad_rows == len(BAD)


def test_rule_table_travels_with_the_tasks(data, client, tmp_path):
    """A user's table reaches the workers as an argument (they never read a rules file)."""
    text = (Path(fastscore.__file__).parent / "rules.toml").read_text()
    marker = 'id = "self_draw"\npoints = 1'
    assert marker in text
    path = tmp_path / "house.toml"
    path.write_text(text.replace(marker, 'id = "self_draw"\npoints = 7'))
    table = fastscore.load_rules(path)
    assert pickle.loads(pickle.dumps(table)).kernel_args[0].tolist() == table.kernel_args[0].tolist()
    path.unlink()  # the workers cannot have read it
    done = score_parquet(data["score_in"], tmp_path / "out", client=client, rules=table)
    got = _dataset(done.paths)
    assert got.equals(_single_machine(data["score_in"], "score", tmp_path / "single.parquet", rules=table))
    assert set(got.column("row_self_draw").to_pylist()) == {0, 7}
    assert not got.equals(data["score"])


def test_without_a_client_runs_in_this_process(data, tmp_path):
    done = score_parquet(data["score_in"], tmp_path / "out", partition_rows=120_000, with_input=True)
    got = _dataset(done.paths)
    assert len(done.paths) == 2 and got.num_rows == SCORE_ROWS
    assert got.column_names[:len(fastscore.RECORD_KEYS)] == list(fastscore.RECORD_KEYS)
    assert got.drop_columns(list(fastscore.RECORD_KEYS)).column("row_self_draw").equals(
        data["score"].column("row_self_draw"))


def test_summaries_come_back_in_partition_order(data, client, tmp_path):
    done = score_parquet(data["score_in"], tmp_path / "out", client=client, partition_rows=50_000, summarize=len)
    assert done.summaries == [40_000] * 5


# --------------------------------------------------------------------------- surveys

#: The bamboo-and-honours space: 460,715 hands, about 2.2 million scorings with win="uniform".
SURVEY_SPACE = dict(suits="s", honours=True)


@pytest.fixture(scope="module")
def house_rules(tmp_path_factory):
    """The packaged table with concealed_hand worth 0 points."""
    text = (Path(fastscore.__file__).parent / "rules.toml").read_text()
    marker = 'id = "concealed_hand"\npoints = 5'
    assert marker in text
    path = tmp_path_factory.mktemp("house") / "house.toml"
    path.write_text(text.replace(marker, 'id = "concealed_hand"\npoints = 0'))
    return fastscore.load_rules(path)


def assert_same_survey(got, want):
    assert (got.hands, got.scorings, got.multiplicity, got.unit) == (want.hands, want.scorings, want.multiplicity,
                                                                    want.unit)
    assert got.context == want.context
    assert got.tally.equal(want.tally)
    assert (got.compare is None) == (want.compare is None)
    if want.compare is not None:
        assert got.compare.equal(want.compare)
        assert np.array_equal(got.payout_change, want.payout_change)


@pytest.fixture(scope="module")
def single_survey(house_rules):
    return survey(**SURVEY_SPACE, compare=house_rules, progress=False)


def test_survey_matches_single_machine(client, single_survey, house_rules):
    got = dask_survey(client=client, partition_hands=100_000, **SURVEY_SPACE, compare=house_rules)
    assert single_survey.hands == 460_715
    assert_same_survey(got, single_survey)
    # the house table really was used on the workers: concealed_hand (5 points) never scores under it
    assert got.row_frequency()["concealed_hand"] > 0.99 and got.row_frequency(table="compare")["concealed_hand"] == 0


def test_survey_sample_with_a_given_tile_matches_single_machine(client):
    options = dict(sample=200_000, seed=5, win="5p", self_drawn=True, seat="S")
    got = dask_survey(client=client, partition_hands=30_000, **options)
    assert_same_survey(got, survey(**options, progress=False))
    assert 0 < got.hands < 200_000  # only the hands holding 5p


def test_survey_without_a_client_runs_in_this_process(single_survey, house_rules):
    got = dask_survey(partition_hands=200_000, **SURVEY_SPACE, compare=house_rules)
    assert_same_survey(got, single_survey)


def test_survey_argument_errors():
    with pytest.raises(ValueError, match="partition_hands must be a positive integer"):
        dask_survey(partition_hands=0)
    with pytest.raises(ValueError, match="suits"):
        dask_survey(suits="x")
    with pytest.raises(ValueError, match="sample must be a positive number"):
        dask_survey(sample=-1)


# --------------------------------------------------------------------------- a worker dies mid-job


@contextmanager
def one_worker_killed(ready):
    """A client of a fresh two-process cluster; while the block runs, one worker busy with tasks is
    SIGKILLed as soon as ``ready(busy)`` is true (``busy``: worker -> task keys, workers with tasks only).

    Yields ``(client, killed)``; ``killed`` gets ``worker`` and its ``keys`` at the kill, and
    ``survivors`` (the workers at the end of the block).
    """
    killed: dict = {}
    done = threading.Event()
    with local_cluster(2, dashboard_address=":0") as cluster, Client(cluster, set_as_default=False) as c:
        warm_workers(c)
        pids = c.run(os.getpid)

        def kill_a_busy_worker():
            while not done.is_set() and not killed:
                busy = {w: keys for w, keys in c.processing().items() if keys}
                if busy and ready(busy):
                    worker, keys = next(iter(busy.items()))
                    killed.update(worker=worker, keys=list(keys))
                    os.kill(pids[worker], signal.SIGKILL)
                time.sleep(0.01)

        killer = threading.Thread(target=kill_a_busy_worker)
        killer.start()
        try:
            yield c, killed
        finally:
            done.set()
            killer.join()
        killed["survivors"] = set(c.scheduler_info()["workers"])


def test_worker_killed_mid_job_every_row_present_and_correct(data, tmp_path):
    out = tmp_path / "out"
    parts_at_kill = []

    def two_parts_written(busy):
        parts_at_kill.append(len(list(tmp_path.glob(".out.partial-*/part.*.parquet"))))
        return parts_at_kill[-1] >= 2

    with one_worker_killed(two_parts_written) as (c, killed):
        # 48 tasks of 250 rows; the sleep stretches each to >= 0.1 s, so the job lasts
        # seconds however fast the machine, and the kill lands with tasks running and queued.
        done = score_parquet(data["fault_in"], out, client=c, partition_rows=250,
                             summarize=lambda result: time.sleep(0.1))
    assert killed, "the job finished before a worker could be killed"
    assert killed["keys"] and parts_at_kill[-1] < 48
    assert killed["worker"] not in killed["survivors"]  # it really died (its nanny started a new one)
    got = _dataset(done.paths)
    assert len(done.paths) == 48 and done.rows == FAULT_ROWS
    assert got.equals(data["fault"])
    assert not list(out.glob(".*"))  # no partial files left behind


def test_worker_killed_mid_survey_same_tallies(single_survey, house_rules):
    def both_workers_surveying(busy):
        return sum(any(str(k).startswith("fastscore-survey-") for k in keys) for keys in busy.values()) == 2

    with one_worker_killed(both_workers_surveying) as (c, killed):
        # 47 tasks of 10,000 hands, seconds in all: the kill lands with tasks running and queued.
        got = dask_survey(client=c, partition_hands=10_000, **SURVEY_SPACE, compare=house_rules)
    assert killed, "the survey finished before a worker could be killed"
    assert killed["worker"] not in killed["survivors"]
    assert_same_survey(got, single_survey)


# --------------------------------------------------------------------------- planning and the output folder


def test_plan_partitions_packs_and_splits_row_groups(tmp_path):
    records = io.hand_records(sample_winning(10, seed=1))
    table = pa.Table.from_pylist(records)
    folder = tmp_path / "in"
    folder.mkdir()
    for name, rows, group in (("part.10.parquet", 4, 4), ("part.2.parquet", 10, 3), ("part.1.parquet", 0, 1)):
        pq.write_table(table.slice(0, rows), folder / name, row_group_size=group)
    (folder / "_metadata").write_text("not a part")
    parts = plan_partitions(folder, partition_rows=7)
    # part.1 (empty) gives nothing; part.2's groups of 3, 3, 3, 1 pack as 6 + 4; part.10 after part.2
    assert [(Path(p.path).name, p.row_groups, p.skip, p.rows, p.offset) for p in parts] == [
        ("part.2.parquet", (0, 1), 0, 6, 0),
        ("part.2.parquet", (2, 3), 0, 4, 6),
        ("part.10.parquet", (0,), 0, 4, 10),
    ]
    big = plan_partitions(folder / "part.2.parquet", partition_rows=2)  # groups of 3 split as 2 + 1
    assert [(p.row_groups, p.skip, p.rows) for p in big][:3] == [((0,), 0, 2), ((0,), 2, 1), ((1,), 0, 2)]
    assert [p.index for p in big] == list(range(len(big)))
    assert isinstance(big[0], Partition)


def test_plan_partitions_errors(tmp_path):
    pq.write_table(pa.table({"tiles": ["11m"]}), tmp_path / "x.parquet")
    with pytest.raises(ValueError, match="no 'hand' column"):
        plan_partitions(tmp_path / "x.parquet")
    with pytest.raises(ValueError, match="Parquet only"):
        plan_partitions(tmp_path / "x.jsonl")
    with pytest.raises(ValueError, match="positive integer"):
        plan_partitions(tmp_path / "x.parquet", partition_rows=0)
    with pytest.raises(FileNotFoundError):
        plan_partitions(tmp_path / "nope.parquet")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no .parquet files"):
        plan_partitions(tmp_path / "empty")


def test_a_damaged_partition_is_an_error_naming_its_file(tmp_path):
    """A task reading damaged pages raises what the single-machine reader raises: a ValueError naming the file."""
    from fastscore.dask.datasets import _read_partition

    path = tmp_path / "hands.parquet"
    records = io.hand_records(sample_winning(4_000, 3))
    pq.write_table(pa.Table.from_pylist(records), path, row_group_size=1_000)
    data = bytearray(path.read_bytes())
    start = pq.read_metadata(path).row_group(2).column(0).data_page_offset
    data[start + 16:start + 216] = bytes(200)
    path.write_bytes(bytes(data))
    parts = plan_partitions(path, partition_rows=1_000)
    assert len(_read_partition(parts[0], True)) == 1_000  # an undamaged row group reads
    with pytest.raises(ValueError, match=r"hands\.parquet: cannot read the Parquet data"):
        _read_partition(parts[2], True)


def test_a_column_of_a_wrong_type_is_an_error_naming_its_file(tmp_path):
    """A task reading a column the parser does not take raises the single-machine reader's error, file named."""
    from fastscore.dask.datasets import _read_partition

    path = tmp_path / "hands.parquet"
    pq.write_table(pa.table({"hand": ["11m99m77p11s9s EE RR 333p"], "win": [[9]]}), path)
    with pytest.raises(ValueError, match=r"hands\.parquet: column 'win' has type list"):
        _read_partition(plan_partitions(path)[0], True)


def test_output_folder_rules(data, tmp_path):
    out = tmp_path / "out"
    score_parquet(data["score_in"], out, partition_rows=SCORE_ROWS)
    with pytest.raises(FileExistsError, match=r"out: already exists .* pass --overwrite .* or overwrite=True"):
        score_parquet(data["score_in"], out)
    done = score_parquet(data["score_in"], out, partition_rows=SCORE_ROWS // 2, overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == ["_SUCCESS", "part.0.parquet", "part.1.parquet"]
    assert [p.name for p in done.paths] == ["part.0.parquet", "part.1.parquet"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # the old folder, moved aside, is gone
    (out / "notes.txt").write_text("mine")  # a folder with other files is never replaced
    with pytest.raises(ValueError, match="out: holds notes.txt, which is not part of a fastscore dataset"):
        score_parquet(data["score_in"], out, overwrite=True)
    assert (out / "notes.txt").read_text() == "mine" and (out / "part.1.parquet").exists()
    (tmp_path / "empty").mkdir()  # an empty folder needs no overwrite
    score_parquet(data["score_in"], tmp_path / "empty", partition_rows=SCORE_ROWS)
    assert (tmp_path / "empty" / "_SUCCESS").exists()
    (tmp_path / "file.parquet").write_bytes(b"")
    with pytest.raises(ValueError, match="is a file"):
        score_parquet(data["score_in"], tmp_path / "file.parquet")
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    _write_input(inputs / "part.0.parquet", sample_winning(10, seed=2))
    with pytest.raises(ValueError, match="holds the input"):
        score_parquet(inputs, inputs, overwrite=True)
    assert [p.name for p in inputs.iterdir()] == ["part.0.parquet"]


def test_empty_input_writes_one_empty_part(data, tmp_path):
    pq.write_table(pa.table({"hand": pa.array([], pa.string())}), tmp_path / "empty.parquet")
    done = waits_parquet(tmp_path / "empty.parquet", tmp_path / "out")
    assert done.rows == 0 and [p.name for p in done.paths] == ["part.0.parquet"]
    assert pq.read_table(done.paths[0]).schema.equals(data["waits"].schema)


# --------------------------------------------------------------------------- optional dependency


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_importing_fastscore_does_not_import_dask():
    run = _python("import sys, fastscore; print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_missing_dask_says_which_extra_to_install():
    run = _python("import sys; sys.modules['distributed'] = None; import fastscore.dask")
    assert run.returncode != 0
    assert "ImportError" in run.stderr and "pip install 'fastscore[dask]'" in run.stderr


# --------------------------------------------------------------------------- command line


def _report(stdout: str) -> list[str]:
    """The printed summary without the timing line and the 'wrote' line."""
    return [line for line in stdout.splitlines() if not line.startswith(("rows:", "wrote"))]


def test_cli_batch_on_an_existing_scheduler(data, client, tmp_path):
    runner = CliRunner()
    address = client.scheduler.address
    args = ["batch", str(data["score_in"]), "-o", str(tmp_path / "out"), "--dask", address, "--chunk-rows", "50000"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert f"dask: scheduler {address}, 2 workers, dashboard http" in result.stderr
    assert f"rows: {SCORE_ROWS:,}  bad rows: 2" in result.stdout and "wrote" in result.stdout
    assert _dataset(sorted((tmp_path / "out").glob("part.*.parquet"))).equals(data["score"])
    single = runner.invoke(app, ["batch", str(data["score_in"])])  # the same summary on one machine
    assert single.exit_code == 0, single.output
    assert _report(result.stdout) == _report(single.stdout)
    assert [line for line in result.stderr.splitlines() if line.startswith("bad ")] == \
           [line for line in single.stderr.splitlines() if line.startswith("bad ")]
    again = runner.invoke(app, args)  # the folder is not replaced silently
    assert again.exit_code == 2 and "already exists" in again.stderr and "--overwrite" in again.stderr
    assert "dask: scheduler" not in again.stderr  # refused before connecting
    replaced = runner.invoke(app, [*args, "--overwrite"])
    assert replaced.exit_code == 0, replaced.output
    assert _dataset(sorted((tmp_path / "out").glob("part.*.parquet"))).equals(data["score"])


def test_cli_waits_batch_on_a_local_cluster(data, tmp_path, monkeypatch):
    # Any free port, not 8787: a test run beside another could take 8787 between the CLI's
    # check and the scheduler's bind, and distributed then warns (and leaks a socket).
    monkeypatch.setattr("fastscore.dask.cluster._dashboard_address", lambda: ":0")
    result = CliRunner().invoke(app, ["waits-batch", str(data["waits_in"]), "-o", str(tmp_path / "out"),
                                      "--dask", "local:1", "--chunk-rows", "40000"])
    assert result.exit_code == 0, result.output
    assert ", 1 workers, dashboard http" in result.stderr
    assert _dataset(sorted((tmp_path / "out").glob("part.*.parquet"))).equals(data["waits"])


def test_cli_survey_on_an_existing_scheduler(client, tmp_path):
    runner = CliRunner()
    space = ["--suits", "p", "--no-honours", "--win", "5p", "--self-drawn", "--no-progress"]
    on_cluster = runner.invoke(app, ["survey", "-o", str(tmp_path / "cluster"), *space,
                                     "--dask", client.scheduler.address])
    assert on_cluster.exit_code == 0, on_cluster.output
    assert ", 2 workers, dashboard http" in on_cluster.stderr
    single = runner.invoke(app, ["survey", "-o", str(tmp_path / "single"), *space])
    assert single.exit_code == 0, single.output

    def report(stdout):  # from the rows table on, without the 'wrote' line (the timing line comes before)
        lines = stdout.splitlines()
        first = next(i for i, line in enumerate(lines) if "top 10 rows" in line)
        return [line for line in lines[first:] if not line.startswith("wrote")]

    assert report(on_cluster.stdout) == report(single.stdout)
    holding_5p = sum(int((hands[:, 13] > 0).sum()) for hands, _ in enumerate_hands(suits="p", honours=False))
    assert on_cluster.stdout.startswith(f"hands: {holding_5p:,}  scorings: {holding_5p:,}  ")
    assert pq.read_table(tmp_path / "cluster" / "survey.parquet").equals(
        pq.read_table(tmp_path / "single" / "survey.parquet"))
    bad = runner.invoke(app, ["survey", "-o", str(tmp_path / "bad"), "--suits", "x", "--dask", "local:x"])
    assert bad.exit_code == 2 and "suits" in bad.stderr  # options are checked before any cluster starts


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sample", "5", "-o", "{tmp}/out", "--dask", "local:1"], "--sample runs on this machine only"),
        (["{in}", "--dask", "local:1"], "--dask needs -o FOLDER"),
        (["{in}", "-o", "{tmp}/out", "--dask", "local:x"], "expected local:N"),
        (["{tmp}", "-o", "{tmp}/out.parquet"], "only --dask reads and writes Parquet datasets"),
        (["{in}", "-o", "{tmp}/out.parquet", "--overwrite"], "--overwrite goes with --dask"),
    ],
    ids=["sample", "no-output", "bad-local", "folder-without-dask", "overwrite-without-dask"],
)
def test_cli_dask_argument_errors(data, tmp_path, args, message):
    args = [a.format(tmp=tmp_path, **{"in": data["score_in"]}) for a in args]
    result = CliRunner().invoke(app, ["batch", *args])
    assert result.exit_code == 2 and message in result.stderr, result.output


def test_an_input_changed_during_the_job_leaves_no_dataset(data, tmp_path, monkeypatch):
    """As on one machine (#23): an input rewritten while its partitions are read may mix two files."""
    import shutil

    from fastscore.dask import datasets

    source = tmp_path / "hands.parquet"
    shutil.copy(data["score_in"], source)
    real = datasets._run_partition
    calls = 0

    def touching(part, *args, **kwargs):
        nonlocal calls
        calls += 1
        if calls == 1:
            stat = source.stat()
            os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # rewritten, say
        return real(part, *args, **kwargs)

    monkeypatch.setattr(datasets, "_run_partition", touching)
    with pytest.raises(ValueError, match="the input changed while the job read it"):
        score_parquet(source, tmp_path / "out", partition_rows=120_000)
    assert not (tmp_path / "out").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["hands.parquet"]
