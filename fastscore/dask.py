"""Scoring and waits analysis of Parquet datasets on a Dask cluster (optional: ``pip install 'fastscore[dask]'``).

fastscore has no scheduler of its own: :func:`score_parquet` and
:func:`waits_parquet` cut the input into partitions of whole Parquet row
groups (about ``partition_rows`` rows each), hand one task per partition to a
``distributed`` client, and each task reads its rows, scores them with the same
:func:`fastscore.score_batch` / :func:`fastscore.waits_batch` kernels as the
single-machine job and writes its results with :func:`fastscore.io.open_writer`.
The output is a Parquet dataset, a folder of ``part.<i>.parquet`` files (``i``
zero-padded to one width, so that any reader's name order is the input
order), one result row per input row, in input order, with exactly the schema
of the single-machine job's Parquet output.

:func:`survey` cuts the survey's hands (the enumerated space, or the
sample) into ranges of ``partition_hands``; each task tallies its range with
:func:`fastscore.survey.survey_range` and returns exact integer tallies, which
the client adds up: the same result as the single-machine survey.

Fault tolerance is Dask's: a task lost with its worker is run again on
another worker; a part is written under a hidden name and renamed when
complete, so a rerun replaces a lost attempt and a reader never sees half a
part.  A task that kills three workers in turn is given up
(``distributed.scheduler.allowed-failures``) and the job raises.

What travels with each task: the partition (file path, row groups, row range),
the :class:`~fastscore.RuleTable` itself (it pickles; no module state is read
on the worker), and the output path.  Input and output paths must therefore
mean the same files on the client and on every worker (one machine, or a
shared file system).

Workers compile each numba kernel once: ``cache=True`` keeps the machine code
in the user cache folder (:func:`fastscore._cache.kernel_cache_dir`), shared by all worker
processes of a machine; each job first loads (or compiles) them on every
worker (:func:`warm_workers`).  A worker process runs one kernel call at a time,
on numba's thread pool; by default each task uses its machine's cores divided
by the worker processes on that machine (``kernel_threads``), so that one
process per machine or one per core both use every core once.  The hand
records are parsed by the compiled parser (:mod:`fastscore.arrow`), or
taken as they are from files of encoded hands (:func:`fastscore.io.write_encoded`), and
the kernels of one process run one at a time: give workers one Dask thread
each (``--nthreads 1``).

Importing :mod:`fastscore` never imports Dask; this module does, and raises
an ``ImportError`` naming the extra when Dask is missing.
"""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

try:
    import distributed
    from distributed.comm import get_address_host
except ImportError as exc:  # pragma: no cover - exercised in a subprocess (tests/test_dask.py)
    raise ImportError(
        f"fastscore.dask needs dask and distributed ({exc.name} is missing): pip install 'fastscore[dask]'"
    ) from exc

import numpy as np

from . import io, jobs
from ._jit import PARALLEL_MIN_ROWS
from ._progress import progress_bar
from .batch import HandBatch
from .io.readers import _check_chunk_rows, read_row_groups
from .rules import RuleTable, resolve_rules
from .survey import SurveyPart, SurveyPlan, SurveyResult, Tally, plan_survey, survey_range

__all__ = [
    "DEFAULT_PARTITION_ROWS",
    "DatasetResult",
    "Partition",
    "connect",
    "kernel_threads_by_host",
    "local_cluster",
    "plan_partitions",
    "score_parquet",
    "survey",
    "waits_parquet",
    "warm_workers",
]

#: Rows per task, the same as the single-machine chunk (:data:`fastscore.io.DEFAULT_CHUNK_ROWS`):
#: seconds of reading, parsing and scoring per task against about 20 ms of fixed cost
#: (scheduling, opening the input, writing a part; bench/test_bench_dask.py).
DEFAULT_PARTITION_ROWS = io.DEFAULT_CHUNK_ROWS
#: Source hands per survey task: 57 tasks over the 118,856,487 hands of the whole space, each a few
#: seconds of scoring (about 9 scorings per hand with ``win="uniform"``) and under 200 MB of memory.
DEFAULT_SURVEY_PARTITION = 1 << 21

#: One kernel call at a time per worker process: each call already runs on all
#: of numba's threads, and a worker with several Dask threads (or a warm-up
#: arriving through ``client.run``) must not start a second parallel region beside it.
_KERNEL_LOCK = threading.Lock()


@dataclass(frozen=True)
class Partition:
    """One task's rows: rows ``skip`` to ``skip + rows`` of the row groups ``row_groups`` of ``path``.

    Attributes
    ----------
    index : int
        Partition number, from 0 in input order (the ``i`` of ``part.<i>.parquet``).
    path : str
        The input file.
    row_groups : tuple of int
        Consecutive row groups of ``path`` that hold the rows.
    skip, rows : int
        Rows to drop from the start of the first row group, rows to keep.
    offset : int
        Row number of the first row over the whole input (error messages
        count from 0 over the whole input, as in the single-machine job).
    """

    index: int
    path: str
    row_groups: tuple[int, ...]
    skip: int
    rows: int
    offset: int


@dataclass
class DatasetResult:
    """What :func:`score_parquet` / :func:`waits_parquet` wrote.

    Attributes
    ----------
    output : Path
        The dataset folder.
    paths : list of Path
        Its part files, in input order.
    rows, bad_rows : int
        Rows written and rows flagged as bad input (``error`` not null).
    seconds : float
        Wall time from submitting the first task to the last part written.
    summaries : list
        ``summarize(result)`` of each partition in partition order (empty
        without ``summarize``).
    """

    output: Path
    paths: list[Path]
    rows: int
    bad_rows: int
    seconds: float
    summaries: list = field(default_factory=list)


# --------------------------------------------------------------------------- planning


def _natural_key(path: Path):
    return [int(s) if s.isdigit() else s for s in re.split(r"(\d+)", path.name)]


def _input_files(input) -> list[Path]:
    """The Parquet files of ``input`` (a file, a folder of ``*.parquet``/``*.pq`` files, or a list), in order."""
    if isinstance(input, (str, os.PathLike)):
        path = Path(input)
        if path.is_dir():
            files = [p for p in path.iterdir() if p.is_file() and p.suffix.lower() in (".parquet", ".pq")
                     and not p.name.startswith((".", "_"))]
            if not files:
                raise ValueError(f"{path}: no .parquet files in this folder")
            return sorted(files, key=_natural_key)
        files = [path]
    else:
        files = [Path(p) for p in input]
        if not files:
            raise ValueError("no input files given")
    for path in files:
        if io.file_format(path) != "parquet":
            raise ValueError(f"{path}: the Dask jobs read Parquet only (.parquet or .pq); "
                             f"convert it with `fastscore encode {path.name} -o HANDS.parquet` first")
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such file")
    return files


def plan_partitions(input, partition_rows: int = DEFAULT_PARTITION_ROWS) -> list[Partition]:
    """Cut Parquet input into partitions of whole row groups, about ``partition_rows`` rows each.

    Consecutive row groups of a file are packed into one partition while it
    stays within ``partition_rows``; a row group larger than that is split
    into row ranges (each task then reads the whole row group, so inputs
    written with row groups of at most ``partition_rows`` rows read fastest).
    A partition never spans two files; an empty input gives no partitions.

    Parameters
    ----------
    input : str, Path or sequence of them
        A Parquet file, a folder of Parquet files (read in natural name
        order, ``part.2`` before ``part.10``; names starting with ``.`` or
        ``_`` skipped), or a list of files in the order to read them.
    partition_rows : int
        Target rows per partition.

    Returns
    -------
    list of Partition
        In input order, ``index`` 0, 1, ...

    Raises
    ------
    ValueError
        ``partition_rows`` not a positive integer, a file that is not
        Parquet, or a file without a ``hand`` column (naming the columns
        expected, :data:`fastscore.io.INPUT_SCHEMA`).
    FileNotFoundError
        A file that does not exist.
    """
    partition_rows = _check_chunk_rows(partition_rows)
    parts: list[Partition] = []
    offset = 0

    def add(path, groups, skip, rows):
        nonlocal offset
        parts.append(Partition(len(parts), str(path), tuple(groups), skip, rows, offset))
        offset += rows

    for path in _input_files(input):
        if io.is_empty(path):
            continue  # an empty file is no rows, as for one machine
        with io.parquet_file(path) as pf:
            io.hand_columns(path, pf.schema_arrow.names)  # a file of neither notation nor encoded hands fails here
            sizes = [pf.metadata.row_group(g).num_rows for g in range(pf.metadata.num_row_groups)]
        groups: list[int] = []
        rows = 0
        for g, size in enumerate(sizes):
            if size == 0:
                continue
            if groups and rows + size > partition_rows:
                add(path, groups, 0, rows)
                groups, rows = [], 0
            if size > partition_rows:
                for start in range(0, size, partition_rows):
                    add(path, [g], start, min(partition_rows, size - start))
                continue
            groups.append(g)
            rows += size
        if groups:
            add(path, groups, 0, rows)
    return parts


def _part_names(n: int) -> list[str]:
    """``part.<i>.parquet`` with ``i`` zero-padded to one width (name order = input order)."""
    width = len(str(max(n - 1, 0)))
    return [f"part.{i:0{width}d}.parquet" for i in range(n)]


def _prepare_output(output, overwrite: bool, parts: list[Partition]) -> Path:
    """Create the output folder, refusing one that holds the input (or, without ``overwrite``, old parts)."""
    out = Path(output)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out}: the output of a Dask job is a folder (a Parquet dataset), and this is a file")
    if any(Path(p.path).resolve().parent == out.resolve() for p in parts):
        raise ValueError(f"{out}: the output folder holds the input; write the results to another folder")
    out.mkdir(parents=True, exist_ok=True)
    old = [p for p in out.iterdir() if re.fullmatch(r"\.?part\.\d+\.parquet(\.partial)?", p.name)]
    if old and not overwrite:
        raise FileExistsError(f"{out}: already holds part files (e.g. {old[0].name}) from an earlier run; "
                              f"remove them first (or pass overwrite=True)")
    for p in old:
        p.unlink()
    return out


# --------------------------------------------------------------------------- tasks (run on the workers)


@dataclass(frozen=True)
class _PartDone:
    index: int
    rows: int
    bad_rows: int
    summary: object


def _read_partition(part: Partition, require_win: bool) -> HandBatch:
    """The partition's rows as a validated batch, parsed exactly as :func:`fastscore.io.iter_batches` does."""
    return read_row_groups(part.path, part.row_groups, skip=part.skip, rows=part.rows, offset=part.offset,
                           require_win=require_win)


@contextmanager
def _numba_threads(kernel_threads):
    """Run the block with ``numba.set_num_threads`` (thread-local) set from ``kernel_threads``:
    None (leave numba's default), an int, or a dict host -> int (this worker's host; absent: default)."""
    if isinstance(kernel_threads, dict):
        try:
            host = get_address_host(distributed.get_worker().address)
        except ValueError:  # not running on a worker
            host = None
        kernel_threads = kernel_threads.get(host)
    if kernel_threads is None:
        yield
        return
    import numba

    old = numba.get_num_threads()
    numba.set_num_threads(max(1, min(int(kernel_threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(old)


@contextmanager
def _kernel_call(kernel_threads=None):
    """One kernel call at a time in this process (:data:`_KERNEL_LOCK`), on ``kernel_threads`` threads."""
    with _KERNEL_LOCK, _numba_threads(kernel_threads):
        yield


def _run_partition(part: Partition, kind: str, rules: RuleTable, out_path: str, with_input: bool,
                   summarize: Callable | None, kernel_threads=None) -> _PartDone:
    """Read, process and write one partition (a Dask task) through :func:`fastscore.jobs.run_chunks`;
    a rerun rewrites the same part."""
    batch = _read_partition(part, require_win=kind == "score")
    results = []
    with io.open_writer(out_path, kind, with_input=with_input) as writer:
        jobs.run_chunks(kind, [batch], rules, writer=writer, with_input=with_input, on_result=results.append,
                        kernel=lambda: _kernel_call(kernel_threads))
    result = results[0]
    return _PartDone(part.index, len(result), int(np.count_nonzero(result.error)),
                     summarize(result) if summarize is not None else None)


def _cpu_count() -> int:
    from dask.system import CPU_COUNT  # cores this process may use (affinity and cgroup limits)

    return CPU_COUNT


def _warm(rules: RuleTable | None = None) -> float:
    """Load (or compile) the serial and parallel score and waits kernels in this process, and write
    one small Parquet file of each kind (the first write imports and sets up pyarrow); seconds taken."""
    start = time.perf_counter()
    table = resolve_rules(rules)
    one = HandBatch.from_records([{"hand": "11m99m77p11s9s EE RR 333p", "win": "9s"}])
    many = one.take(np.zeros(PARALLEL_MIN_ROWS, dtype=np.intp))  # big enough for the parallel kernels
    with tempfile.TemporaryDirectory(prefix="fastscore-warm-") as folder:
        for kind in jobs.KINDS:
            process = jobs.processor(kind)
            with _KERNEL_LOCK:
                process(one, table)
                result = process(many, table)
            with io.open_writer(Path(folder) / f"{kind}.parquet", kind) as writer:
                writer.write(result, 0)
    with _KERNEL_LOCK:  # the survey's own kernels (enumeration, expansion, tallies) on the 42 all-honours hands
        survey_range(plan_survey(suits="", rules=table), 0, 42)
    return time.perf_counter() - start


async def _warm_on_worker(rules: RuleTable | None = None) -> float:
    # In a thread, so that a cold compile (tens of seconds) does not block the worker's event loop.
    return await asyncio.to_thread(_warm, rules)


# --------------------------------------------------------------------------- public API


def warm_workers(client: "distributed.Client", rules=None) -> dict[str, float]:
    """Load or compile the kernels on every worker of ``client`` (through ``client.run``).

    Run it once before a job so that no task pays for compiling.  Workers of
    one machine share numba's on-disk cache: after the first has compiled,
    the others load in about a second.  Workers that join later warm up on
    their first task.

    Parameters
    ----------
    client : distributed.Client
    rules : RuleTable, path or None
        The rule table the job will use (default the packaged one).

    Returns
    -------
    dict
        Worker address -> seconds it took.
    """
    return client.run(_warm_on_worker, resolve_rules(rules))


def kernel_threads_by_host(client: "distributed.Client") -> dict[str, int]:
    """Numba threads per task on each machine of the cluster: its cores // its worker processes.

    A worker process runs one kernel call at a time, so this uses every core
    once whether a machine runs one worker process or one per core.

    Returns
    -------
    dict
        Host (as in worker addresses) -> threads, at least 1.
    """
    cores = client.run(_cpu_count)
    per_host: dict[str, list[int]] = {}
    for address, n in cores.items():
        per_host.setdefault(get_address_host(address), []).append(n)
    return {host: max(1, max(ns) // len(ns)) for host, ns in per_host.items()}


def local_cluster(n_workers: int, **kwargs) -> "distributed.LocalCluster":
    """A ``distributed.LocalCluster`` of ``n_workers`` worker processes with one Dask thread each.

    Keyword arguments go to ``LocalCluster`` and override these settings
    (e.g. ``dashboard_address=":0"`` for any free port).  The jobs share the
    cores among the processes (``kernel_threads``).
    """
    if isinstance(n_workers, bool) or not isinstance(n_workers, int) or n_workers < 1:
        raise ValueError(f"n_workers must be a positive integer, got {n_workers!r}")
    options = dict(n_workers=n_workers, threads_per_worker=1, processes=True)
    options.update(kwargs)
    return distributed.LocalCluster(**options)


def _dashboard_address() -> str:
    """``":8787"``, Dask's usual dashboard port, when it is free here; else ``":0"`` (any free port)."""
    import socket

    with socket.socket() as probe:
        try:
            probe.bind(("", 8787))
        except OSError:
            return ":0"
    return ":8787"


def connect(address: str) -> tuple["distributed.Client", "distributed.LocalCluster | None"]:
    """A client of the scheduler at ``address`` (``tcp://host:8786``), or of a new :func:`local_cluster`
    of N worker processes for ``local:N`` (its dashboard on port 8787 when free).

    Returns
    -------
    (distributed.Client, distributed.LocalCluster or None)
        The client, and the cluster made for ``local:N`` (None otherwise); close both.

    Raises
    ------
    ValueError
        ``local:`` not followed by a positive integer, or a scheduler that cannot be reached
        within 20 s (the message says so).
    """
    if address.startswith("local:"):
        n = address.removeprefix("local:")
        if not n.isdigit() or int(n) < 1:
            raise ValueError("expected local:N with N worker processes, e.g. local:4")
        cluster = local_cluster(int(n), dashboard_address=_dashboard_address())
        return distributed.Client(cluster), cluster
    try:
        return distributed.Client(address, timeout="20s"), None
    except (OSError, TimeoutError, ValueError) as exc:
        raise ValueError(f"cannot reach the Dask scheduler ({exc})") from None


def _default_client():
    try:
        return distributed.default_client()
    except ValueError:  # no client in this process
        return None


def _run_job(kind, input, output, *, client, rules, partition_rows, with_input, overwrite, summarize,
             progress, kernel_threads, warm) -> DatasetResult:
    """The body of :func:`score_parquet` and :func:`waits_parquet`."""
    table = resolve_rules(rules)
    parts = plan_partitions(input, partition_rows)
    out = _prepare_output(output, overwrite, parts)
    paths = [out / name for name in _part_names(max(len(parts), 1))]
    if client is None:
        client = _default_client()
    bar = progress_bar(sum(p.rows for p in parts), disable=not progress)
    done: list[_PartDone] = []
    start = time.perf_counter()
    try:
        if client is None:  # no cluster: the same tasks, one after another in this process
            for part in parts:
                done.append(_run_partition(part, kind, table, str(paths[part.index]), with_input, summarize,
                                           kernel_threads))
                bar.update(part.rows)
        else:
            token = uuid.uuid4().hex[:12]
            if warm:
                warm_workers(client, table)
            if kernel_threads is None:
                kernel_threads = kernel_threads_by_host(client)
            futures = [
                client.submit(_run_partition, part, kind, table, str(paths[part.index]), with_input, summarize,
                              kernel_threads, key=f"fastscore-{kind}-{token}-{part.index}", pure=False)
                for part in parts
            ]
            try:
                for future in distributed.as_completed(futures, loop=client.loop):
                    part_done = future.result()
                    future.release()  # a worker lost later no longer holds a result to recompute
                    done.append(part_done)
                    bar.update(part_done.rows)
            except BaseException:
                client.cancel(futures)
                raise
    finally:
        bar.close()
    if not parts:  # an empty input still gets one (empty) part, so that the dataset has its schema
        with io.open_writer(paths[0], kind, with_input=with_input):
            pass
    seconds = time.perf_counter() - start
    for stale in out.glob(".part.*.parquet.partial"):  # left by attempts on workers that died
        stale.unlink(missing_ok=True)
    done.sort(key=lambda d: d.index)
    return DatasetResult(
        output=out,
        paths=paths,
        rows=sum(d.rows for d in done),
        bad_rows=sum(d.bad_rows for d in done),
        seconds=seconds,
        summaries=[d.summary for d in done] if summarize is not None else [],
    )


def score_parquet(input, output, *, client=None, rules=None, partition_rows: int = DEFAULT_PARTITION_ROWS,
                  with_input: bool = False, overwrite: bool = False, summarize: Callable | None = None,
                  progress: bool = False, kernel_threads: int | None = None, warm: bool = True) -> DatasetResult:
    """Score every hand of a Parquet input on a Dask cluster (RULES.md sections 3 to 6).

    One result row per input row, in input order, in a Parquet dataset with
    the schema of ``fastscore batch INPUT -o OUT.parquet``
    (:func:`fastscore.io.open_writer`, ``kind="score"``).  Bad rows are
    flagged, with messages counting rows over the whole input, and never stop
    the job.

    Parameters
    ----------
    input : str, Path or sequence of them
        A Parquet file of hand records (columns :data:`fastscore.RECORD_KEYS`,
        as for ``fastscore batch``) or of encoded hands
        (:data:`fastscore.io.ENCODED_COLUMNS`), a folder of them, or a list of them (see
        :func:`plan_partitions`).  Every worker must be able to read it at this path.
    output : str or Path
        The dataset folder to write (created if missing); every worker must
        be able to write there.
    client : distributed.Client, optional
        The cluster to run on; default the current default client or, when
        there is none, this process (the same tasks one after another).
    rules : RuleTable, path or None
        Rule table (default the packaged one), loaded here and sent with every task.
    partition_rows : int
        Target rows per task (:func:`plan_partitions`).
    with_input : bool
        Also write each row's hand record, first (as ``open_writer(...,
        with_input=True)``; the row-point columns are then ``rows.<id>``).
    overwrite : bool
        Replace part files already in ``output`` (default: refuse).
    summarize : callable, optional
        A picklable function, run on the worker on each partition's
        :class:`~fastscore.BatchResult`; its return values come back in
        :attr:`DatasetResult.summaries` (e.g. counts for a report without
        reading the output back).
    progress : bool
        A progress bar (rows) on stderr.
    kernel_threads : int, optional
        numba threads per kernel call on the workers; default, on a cluster,
        each machine's cores divided by its worker processes
        (:func:`kernel_threads_by_host`), and numba's own default in this process.
    warm : bool
        On a cluster, first load the kernels on every worker
        (:func:`warm_workers`; milliseconds when they are loaded already).

    Returns
    -------
    DatasetResult
        The part paths in input order, rows, bad rows and seconds.

    Raises
    ------
    ValueError
        Bad ``partition_rows``, input that is not Parquet or has no ``hand``
        column, an output path that is a file, or an invalid rule table.
    FileExistsError
        ``output`` already holds part files and ``overwrite`` is False.
    distributed.KilledWorker
        A task was running on a worker that died more than
        ``distributed.scheduler.allowed-failures`` (3) times.

    Examples
    --------
    >>> from distributed import Client                                      # doctest: +SKIP
    >>> from fastscore.dask import local_cluster, score_parquet
    >>> with local_cluster(4) as cluster, Client(cluster) as client:
    ...     done = score_parquet("hands.parquet", "scores/", client=client)
    >>> done.rows == pyarrow.parquet.read_table("scores/").num_rows
    True
    """
    return _run_job("score", input, output, client=client, rules=rules, partition_rows=partition_rows,
                    with_input=with_input, overwrite=overwrite, summarize=summarize, progress=progress,
                    kernel_threads=kernel_threads, warm=warm)


def waits_parquet(input, output, *, client=None, rules=None, partition_rows: int = DEFAULT_PARTITION_ROWS,
                  with_input: bool = False, overwrite: bool = False, summarize: Callable | None = None,
                  progress: bool = False, kernel_threads: int | None = None, warm: bool = True) -> DatasetResult:
    """Waits and their payouts of every 16-tile hand of a Parquet input on a Dask cluster (RULES.md section 7).

    As :func:`score_parquet` (same parameters, result and errors;
    ``summarize`` gets a :class:`~fastscore.WaitsResult`), with the schema of
    ``fastscore waits-batch INPUT -o OUT.parquet`` (``n_waits``,
    ``waits_json``, ``error``).  The ``win`` column is not needed and is ignored.
    """
    return _run_job("waits", input, output, client=client, rules=rules, partition_rows=partition_rows,
                    with_input=with_input, overwrite=overwrite, summarize=summarize, progress=progress,
                    kernel_threads=kernel_threads, warm=warm)


def _survey_task(plan: SurveyPlan, start: int, stop: int, kernel_threads=None) -> SurveyPart:
    """Tally source rows ``start .. stop - 1`` of a survey (a Dask task); no state outside its arguments."""
    with _KERNEL_LOCK, _numba_threads(kernel_threads):
        return survey_range(plan, start, stop)


def survey(*, client=None, partition_hands: int = DEFAULT_SURVEY_PARTITION, progress: bool = False,
           kernel_threads: int | None = None, warm: bool = True, **options) -> SurveyResult:
    """:func:`fastscore.survey.survey` on a Dask cluster: one task per range of the hands, tallies summed.

    The space (or the sample) is cut into ranges of ``partition_hands``
    source hands; each task enumerates (or draws) and scores its range with
    :func:`fastscore.survey.survey_range`, exactly as the single-machine
    survey does, and returns its integer tallies, which are added up here.
    The result is identical to ``fastscore.survey.survey(**options)`` for any
    cluster, partition size or order of completion; only ``seconds`` differs.

    Parameters
    ----------
    client : distributed.Client, optional
        The cluster; default the current default client or, when there is
        none, this process (the same tasks one after another).
    partition_hands : int
        Source hands per task (:data:`DEFAULT_SURVEY_PARTITION`).
    progress : bool
        A progress bar (hands) on stderr.
    kernel_threads : int, optional
        numba threads per task, as in :func:`score_parquet`.
    warm : bool
        On a cluster, first load the kernels on every worker (:func:`warm_workers`).
    **options
        The keyword arguments of :func:`fastscore.survey.survey` (context,
        ``win``, ``rules``, ``compare``, ``sample``/``seed``, ``suits``,
        ``honours``, ``fixed``, ``chunk_rows``), checked here before any task
        is sent; the rule tables travel with every task.

    Returns
    -------
    SurveyResult
        ``seconds`` is the wall time of the tasks (after warming the workers).

    Raises
    ------
    ValueError
        Bad ``partition_hands`` or any error of :func:`fastscore.survey.survey`'s options.
    distributed.KilledWorker
        A task's worker died more than ``distributed.scheduler.allowed-failures`` times.

    Examples
    --------
    >>> from distributed import Client                                      # doctest: +SKIP
    >>> from fastscore.dask import local_cluster, survey
    >>> with local_cluster(2) as cluster, Client(cluster) as client:
    ...     result = survey(client=client, suits="s")
    >>> result.hands
    26414
    """
    if isinstance(partition_hands, bool) or not isinstance(partition_hands, int) or partition_hands < 1:
        raise ValueError(f"partition_hands must be a positive integer, got {partition_hands!r}")
    plan = plan_survey(**options)
    ranges = [(a, min(a + partition_hands, plan.size)) for a in range(0, plan.size, partition_hands)]
    if client is None:
        client = _default_client()
    total = SurveyPart(compare=Tally() if plan.other is not None else None)
    bar = progress_bar(plan.size, "survey", disable=not progress, unit="hands")
    try:
        if client is None:
            start = time.perf_counter()
            for a, b in ranges:
                total += _survey_task(plan, a, b, kernel_threads)
                bar.update(b - a)
        else:
            if warm:
                warm_workers(client, plan.table)
            if kernel_threads is None:
                kernel_threads = kernel_threads_by_host(client)
            token = uuid.uuid4().hex[:12]
            start = time.perf_counter()
            futures = {
                client.submit(_survey_task, plan, a, b, kernel_threads, key=f"fastscore-survey-{token}-{i}",
                              pure=False): b - a
                for i, (a, b) in enumerate(ranges)
            }
            try:
                for future in distributed.as_completed(list(futures), loop=client.loop):
                    total += future.result()
                    bar.update(futures[future])
                    future.release()
            except BaseException:
                client.cancel(list(futures))
                raise
    finally:
        bar.close()
    return plan.result(total, time.perf_counter() - start)
