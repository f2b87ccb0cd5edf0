"""Scoring, waits, shanten and discards of Parquet datasets on a Dask cluster: partitions of whole row
groups, one task each, one part file each, in input order (:func:`score_parquet`, :func:`waits_parquet`,
:func:`shanten_parquet`, :func:`discards_parquet`).

The output folder appears only when complete.  The workers write the parts
into a hidden folder beside it, ``.<name>.partial-<token>``; when every part
is written the client adds an empty ``_SUCCESS`` file (as Hadoop and Spark
do) and renames the folder to the output's name, after renaming an older
output aside (deleted once the new one is in).  So a reader finds the old
dataset whole, or the new one whole with its ``_SUCCESS``, never some of the
parts: a client killed mid-job (Ctrl-C, SIGTERM, SIGKILL, a lost machine)
leaves at most the hidden folder, which the next run given the same output
removes (:mod:`fastscore._folders`).  Readers that may meet folders written
otherwise should check for ``_SUCCESS``.
"""

from __future__ import annotations

import os
import re
import shutil
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import distributed
import numpy as np

from .. import _folders, io, jobs
from .._lock import OutputLock
from .._progress import progress_bar
from ..batch import HandBatch
from ..io.readers import _check_chunk_rows, read_row_groups
from ..rules import RuleTable, resolve_rules
from .cluster import _default_client, _kernel_call, kernel_threads_by_host, warm_workers

__all__ = ["DEFAULT_PARTITION_ROWS", "DatasetResult", "Partition", "discards_parquet", "plan_partitions",
           "score_parquet", "shanten_parquet", "waits_parquet"]

#: Rows per task, the same as the single-machine chunk (:data:`fastscore.io.DEFAULT_CHUNK_ROWS`):
#: seconds of reading, parsing and scoring per task against about 20 ms of fixed cost
#: (scheduling, opening the input, writing a part; bench/test_bench_dask.py).
DEFAULT_PARTITION_ROWS = io.DEFAULT_CHUNK_ROWS


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
        The dataset folder (complete: it holds ``_SUCCESS``).
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
                             f"convert it with `fastscore encode {path.name} -o HANDS.parquet` first (with "
                             f"`--keep COLUMNS` for its ID columns)")
        if not path.is_file():
            raise FileNotFoundError(f"no such file: {path}")
    return files


def plan_partitions(input, partition_rows: int = DEFAULT_PARTITION_ROWS, *, keep=(),
                    require_win: bool = False) -> list[Partition]:
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
    keep, require_win
        As :func:`fastscore.io.hand_columns`: every file's columns are checked.

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
            # a file of neither notation nor encoded hands, or with a column not read nor kept, fails here
            io.hand_columns(path, pf.schema_arrow.names, keep=keep, require_win=require_win,
                            metadata=pf.schema_arrow.metadata)
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


#: The names a dataset folder of these jobs holds: its parts, the marker of a complete dataset, and the
#: hidden file of a part being written (left in folders written before the marker, by workers that died).
_DATASET_NAME = re.compile(r"part\.\d+\.parquet|_SUCCESS|\.part\.\d+\.parquet\.partial")

#: The empty file that marks a complete dataset (as Hadoop and Spark write it); readers ignore it.
SUCCESS = "_SUCCESS"


def _prepare_output(output, overwrite: bool, parts: list[Partition]) -> Path:
    """Check the output folder (:func:`score_parquet`, ``output`` and ``overwrite``); returns it as a Path.

    Refused: a file; a folder that holds the input (or is inside it); without
    ``overwrite``, a folder that is not empty; with it, a folder holding
    anything but a dataset's files (a user's folder is never deleted).
    """
    out = _folders.target(output)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out}: the output of a Dask job is a folder (a Parquet dataset), and this is a file")
    where = out.resolve()
    if any(Path(p.path).resolve().is_relative_to(where) for p in parts):
        raise ValueError(f"{out}: the output folder holds the input; write the results to another folder")
    names = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
    if names and not overwrite:
        raise FileExistsError(f"{out}: already exists (it holds {names[0]}); to replace it, pass --overwrite on "
                              f"the command line or overwrite=True in Python (the old dataset stays whole until "
                              f"the new one is complete)")
    other = [name for name in names if not _DATASET_NAME.fullmatch(name)]
    if other:
        raise ValueError(f"{out}: holds {other[0]}, which is not part of a fastscore dataset "
                         f"(part.<i>.parquet, {SUCCESS}); --overwrite replaces only such a folder, "
                         f"so give another output folder or remove it")
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


def _run_partition(part: Partition, kind: str, rules: RuleTable, out_path: str, with_input: bool,
                   summarize: Callable | None, kernel_threads=None, kept=None, layout=None) -> _PartDone:
    """Read, process and write one partition (a Dask task) through :func:`fastscore.jobs.run_chunks`;
    a rerun rewrites the same part.  ``kept``: the schema of the columns carried through (``keep``);
    ``layout``: the writer's ``rows`` and ``waits_json`` (:func:`fastscore.io.open_writer`)."""
    if kept is None:
        chunk = _read_partition(part, require_win=jobs.require_win_of(kind))
    else:
        chunk = read_row_groups(part.path, part.row_groups, skip=part.skip, rows=part.rows, offset=part.offset,
                                require_win=jobs.require_win_of(kind), keep=kept.names)
    results = []
    with io.open_writer(out_path, kind, with_input=with_input, kept=kept, **(layout or {})) as writer:
        jobs.run_chunks(kind, [chunk], rules, writer=writer, with_input=with_input, on_result=results.append,
                        kernel=lambda: _kernel_call(kernel_threads), rows=writer.rows != "none")
    result = results[0]
    return _PartDone(part.index, len(result), int(np.count_nonzero(result.error)),
                     summarize(result) if summarize is not None else None)


def _run_job(kind, input, output, *, client, rules, partition_rows, with_input, overwrite, summarize,
             progress, kernel_threads, warm, keep=(), layout=None) -> DatasetResult:
    """The body of :func:`score_parquet` and :func:`waits_parquet`: the parts go to a hidden folder beside
    the output, which gets the output's name once every part and ``_SUCCESS`` are written
    (:mod:`fastscore._folders`)."""
    table = resolve_rules(rules)
    keep = io.check_keep(keep)
    if kind == "score":
        io.schemas.rows_layout(layout["rows"], "parquet")  # an unknown layout, before anything starts
        layout = {**layout, "row_ids": table.row_ids}  # the table's rows in force: the dense columns
    parts = plan_partitions(input, partition_rows, keep=keep, require_win=jobs.require_win_of(kind))
    kept = None
    if keep:  # the kept columns' types: the first file's (each partition's are cast to them)
        kept = io.check_input(parts[0].path if parts else _input_files(input)[0], keep=keep,
                              require_win=jobs.require_win_of(kind))
    inputs = {path: jobs.input_state(Path(path)) for path in dict.fromkeys(p.path for p in parts)}
    out = _prepare_output(output, overwrite, parts)
    with OutputLock(out):  # one run per output: the next lines remove what other runs left beside it
        _folders.sweep(out)
        temp = _folders.new_partial(out)
        try:
            done, seconds = _run_parts(kind, parts, temp, client=client, table=table, with_input=with_input,
                                       summarize=summarize, progress=progress, kernel_threads=kernel_threads,
                                       warm=warm, kept=kept, layout=layout)
            for stale in temp.glob(".part.*.parquet.partial"):  # left by attempts on workers that died
                stale.unlink(missing_ok=True)
            for path, state in inputs.items():  # an input rewritten meanwhile: its rows may be mixed
                jobs.check_input_unchanged(Path(path), state)
            (temp / SUCCESS).touch()
            _folders.publish(temp, out)
        except BaseException:
            shutil.rmtree(temp, ignore_errors=True)  # a task still running fails to write (its folder is gone)
            raise
    done.sort(key=lambda d: d.index)
    return DatasetResult(
        output=out,
        paths=[out / name for name in _part_names(max(len(parts), 1))],
        rows=sum(d.rows for d in done),
        bad_rows=sum(d.bad_rows for d in done),
        seconds=seconds,
        summaries=[d.summary for d in done] if summarize is not None else [],
    )


def _run_parts(kind, parts, folder: Path, *, client, table, with_input, summarize, progress, kernel_threads,
               warm, kept=None, layout=None) -> tuple[list[_PartDone], float]:
    """Run every partition's task, each writing its part into ``folder``; returns what they did and the seconds."""
    paths = [folder / name for name in _part_names(max(len(parts), 1))]
    if client is None:
        client = _default_client()
    bar = progress_bar(sum(p.rows for p in parts), disable=not progress)
    done: list[_PartDone] = []
    start = time.perf_counter()
    try:
        if client is None:  # no cluster: the same tasks, one after another in this process
            for part in parts:
                done.append(_run_partition(part, kind, table, str(paths[part.index]), with_input, summarize,
                                           kernel_threads, kept, layout))
                bar.update(part.rows)
        else:
            token = uuid.uuid4().hex[:12]
            if warm:
                warm_workers(client, table)
            if kernel_threads is None:
                kernel_threads = kernel_threads_by_host(client)
            futures = [
                client.submit(_run_partition, part, kind, table, str(paths[part.index]), with_input, summarize,
                              kernel_threads, kept, layout, key=f"fastscore-{kind}-{token}-{part.index}",
                              pure=False)
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
        with io.open_writer(paths[0], kind, with_input=with_input, kept=kept, **(layout or {})):
            pass
    return done, time.perf_counter() - start


def score_parquet(input, output, *, client=None, rules=None, partition_rows: int = DEFAULT_PARTITION_ROWS,
                  with_input: bool = False, overwrite: bool = False, summarize: Callable | None = None, keep=(),
                  progress: bool = False, kernel_threads: int | None = None, warm: bool = True,
                  rows: str = "dense") -> DatasetResult:
    """Score every hand of a Parquet input on a Dask cluster (LRC rules sections 3 to 6).

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
        The dataset folder to write; every worker must be able to write in
        its parent folder.  The parts are written into the hidden folder
        ``.<name>.partial-<token>`` beside it, which gets this name (with an
        empty ``_SUCCESS`` file in it) only when every part is written: a
        job interrupted in any way (the client killed included) leaves no
        folder of this name, or the older one untouched.  The hidden folder
        of an interrupted job is removed by the next job given this output.
        While the job runs the client holds the lock ``.<name>.lock`` beside
        it (:class:`fastscore._lock.OutputLock`).
    client : distributed.Client, optional
        The cluster to run on; default the current default client or, when
        there is none, this process (the same tasks one after another).
    rules : RuleTable, path or None
        Rule table (default the packaged one), loaded here and sent with every task.
    partition_rows : int
        Target rows per task (:func:`plan_partitions`).
    with_input : bool
        Also write each row's hand record, first (as ``open_writer(...,
        with_input=True)``).
    rows : {"dense", "sparse", "none"}
        The row points: one int16 column ``row_<id>`` per row in force in the table, one ``map<string, int16>`` column
        ``rows`` of the rows that scored, or none (as ``open_writer(..., rows=...)``).
    keep : sequence of str
        Input columns fastscore does not read (``game_id``) to copy into each part, first, with
        the first file's types (``--keep``; :func:`fastscore.io.check_input`); any other
        column fastscore does not read is an error.
    overwrite : bool
        Replace an existing ``output`` folder (default: refuse one that is
        not empty).  It is renamed aside and deleted only when the new
        dataset is complete and renamed in; only a folder holding nothing
        but a dataset's files (``part.<i>.parquet``, ``_SUCCESS``) is replaced.
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
        column, an output path that is a file or a folder holding the input,
        with ``overwrite`` a folder holding other files than a dataset's,
        another job writing the same output, or an invalid rule table.
    FileExistsError
        ``output`` exists, is not empty, and ``overwrite`` is False.
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
    >>> (done.output / "_SUCCESS").exists()
    True
    """
    return _run_job("score", input, output, client=client, rules=rules, partition_rows=partition_rows,
                    with_input=with_input, overwrite=overwrite, summarize=summarize, progress=progress, keep=keep,
                    kernel_threads=kernel_threads, warm=warm, layout={"rows": rows})


def waits_parquet(input, output, *, client=None, rules=None, partition_rows: int = DEFAULT_PARTITION_ROWS,
                  with_input: bool = False, overwrite: bool = False, summarize: Callable | None = None, keep=(),
                  progress: bool = False, kernel_threads: int | None = None, warm: bool = True,
                  waits_json: bool = False) -> DatasetResult:
    """Waits and their payouts of every 16-tile hand of a Parquet input on a Dask cluster (LRC rules section 7).

    As :func:`score_parquet` (same parameters, result and errors;
    ``summarize`` gets a :class:`~fastscore.WaitsResult`), with the schema of
    ``fastscore waits-batch INPUT -o OUT.parquet`` (``n_waits``, ``waits``, with ``waits_json``
    the ``waits_json`` text, ``error``).  The ``win`` column is not needed and is ignored.
    """
    return _run_job("waits", input, output, client=client, rules=rules, partition_rows=partition_rows,
                    with_input=with_input, overwrite=overwrite, summarize=summarize, progress=progress, keep=keep,
                    kernel_threads=kernel_threads, warm=warm, layout={"waits_json": waits_json})


def shanten_parquet(input, output, *, client=None, rules=None, partition_rows: int = DEFAULT_PARTITION_ROWS,
                    with_input: bool = False, overwrite: bool = False, summarize: Callable | None = None, keep=(),
                    progress: bool = False, kernel_threads: int | None = None, warm: bool = True) -> DatasetResult:
    """Shanten of every hand of a Parquet input on a Dask cluster (LRC rules sections 3, 7): 16-tile hands,
    or 17 where a row has a ``win`` (the draw).

    As :func:`score_parquet` (same parameters, ``rules`` giving only the shapes that win; same result and
    errors; ``summarize`` gets a :class:`~fastscore.ShantenResult`), with the schema of
    ``fastscore shanten-batch INPUT -o OUT.parquet`` (:data:`fastscore.io.SHANTEN_COLUMNS`).
    """
    return _run_job("shanten", input, output, client=client, rules=rules, partition_rows=partition_rows,
                    with_input=with_input, overwrite=overwrite, summarize=summarize, progress=progress, keep=keep,
                    kernel_threads=kernel_threads, warm=warm)


def discards_parquet(input, output, *, client=None, rules=None, partition_rows: int = DEFAULT_PARTITION_ROWS,
                     with_input: bool = False, overwrite: bool = False, summarize: Callable | None = None, keep=(),
                     progress: bool = False, kernel_threads: int | None = None, warm: bool = True) -> DatasetResult:
    """Every discard of every 17-tile hand of a Parquet input on a Dask cluster (LRC rules sections 3, 7):
    16 tiles and the drawn one in ``win`` (required), nothing seen.

    As :func:`score_parquet` (same parameters, result and errors; ``summarize`` gets a
    :class:`~fastscore.DiscardResult`), with the schema of ``fastscore discards-batch INPUT -o OUT.parquet``
    (:data:`fastscore.io.DISCARDS_COLUMNS`).
    """
    return _run_job("discards", input, output, client=client, rules=rules, partition_rows=partition_rows,
                    with_input=with_input, overwrite=overwrite, summarize=summarize, progress=progress, keep=keep,
                    kernel_threads=kernel_threads, warm=warm)
