"""Chunked jobs: read (or generate) hands, score them, find their waits, shanten or discards, write the
results, resume.

The one pipeline behind ``fastscore batch``, ``waits-batch``, ``shanten-batch``, ``discards-batch`` and
``encode`` (:class:`BatchJob`, :func:`encode_hands`) and behind each Dask partition task
(:func:`run_chunks`, called by :mod:`fastscore.dask`)::

    chunks (iter_batches / sample_chunks)  ->  processor(kind)  ->  ResultWriter  ->  summary

The kinds (:data:`KINDS`): ``"score"`` (:func:`fastscore.score_batch`), ``"waits"``
(:func:`fastscore.waits_batch`), ``"shanten"`` (:func:`fastscore.shanten_batch`) and ``"discards"``
(:func:`fastscore.discard_analysis`).

A job with an output writes it resumably (:mod:`fastscore.io.parts`): what
makes its rows is recorded by :func:`job_description`, and a resumed run
reads its input from the first row its kept parts do not hold.  The
summaries (:class:`ScoreSummary`, :class:`WaitsSummary`, :class:`ShantenSummary`,
:class:`DiscardsSummary`) add up counts chunk
by chunk, or partition by partition on a cluster (:func:`partition_summary`,
:meth:`ScoreSummary.merge`); printing them is the command line's.

Errors are raised, never printed: ValueError (and OSError) with the message
the command line prints after ``error:``.  Nothing here imports click or rich.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np

from . import io
from ._lock import OutputLock
from .batch import HandBatch
from .rules import ROW_IDS, SHAPE_NAMES, RuleTable

__all__ = [
    "COMMANDS",
    "KINDS",
    "SHANTEN_BINS",
    "BatchJob",
    "DiscardsSummary",
    "ScoreSummary",
    "ShantenSummary",
    "WaitsSummary",
    "check_input_unchanged",
    "check_output_folder",
    "encode_hands",
    "input_state",
    "kept_parts_message",
    "job_description",
    "require_win_of",
    "new_summary",
    "no_thread",
    "partition_summary",
    "processor",
    "run_chunks",
    "sample_chunks",
    "stop_message",
    "warm",
]

#: The kinds of job: ``"score"`` (:func:`fastscore.score_batch`), ``"waits"`` (:func:`fastscore.waits_batch`),
#: ``"shanten"`` (:func:`fastscore.shanten_batch`) and ``"discards"`` (:func:`fastscore.discard_analysis`)
#: (:data:`fastscore.io.schemas.KINDS`, the kinds of result).
KINDS = io.schemas.KINDS

#: The command of each kind (``job.json`` records it).
COMMANDS = {"score": "batch", "waits": "waits-batch", "shanten": "shanten-batch", "discards": "discards-batch"}

#: One hand per kind, processed before a job's first chunk so that loading the kernels is not timed.
_WARM_RECORD = {"score": {"hand": "11m99m77p11s9s EE RR 333p", "win": "9s"},
                "waits": {"hand": "11m99m77p11s9s EE RR 333p"},
                "shanten": {"hand": "11m99m77p11s9s EE RR 333p"},
                "discards": {"hand": "11m99m77p11s9s EE RR 333p", "win": "9s"}}


def require_win_of(kind: str) -> bool | None:
    """How rows of ``kind`` read ``win``, the readers' ``require_win`` (:data:`fastscore.io.schemas.REQUIRE_WIN`):
    True, required (the winning tile of ``"score"``, the drawn tile of ``"discards"``); False, ignored
    (``"waits"``: 16-tile hands); None, read where given (``"shanten"``: a row with one is a 17-tile hand)."""
    return io.schemas.REQUIRE_WIN[kind]


def _shanten(batch: HandBatch, table: RuleTable):
    from . import efficiency  # looked up at each call (tests replace it)

    return efficiency.shanten_batch(batch, rules=table)


def _discards(batch: HandBatch, table: RuleTable):
    from . import efficiency

    return efficiency.discard_analysis(batch, rules=table)


def processor(kind: str, rows: bool = True) -> Callable:
    """The function ``(batch, table) -> result`` of ``kind``: :func:`fastscore.score_batch` (``"score"``;
    ``rows`` False: without the points per row, for an output without row columns),
    :func:`fastscore.waits_batch` (``"waits"``), :func:`fastscore.shanten_batch` (``"shanten"``, the rule
    table unused) or :func:`fastscore.discard_analysis` (``"discards"``, nothing seen).

    Raises
    ------
    ValueError
        Another ``kind``.
    """
    if kind == "score":
        from .score import score_batch

        return score_batch if rows else functools.partial(score_batch, rows=False)
    if kind == "waits":
        from .waits import waits_batch

        return waits_batch
    if kind == "shanten":
        return _shanten
    if kind == "discards":
        return _discards
    raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")


def warm(kind: str, table: RuleTable) -> None:
    """Load (or compile) the kernels of ``kind`` by processing one hand."""
    processor(kind)(HandBatch.from_records([_WARM_RECORD[kind]], require_win=require_win_of(kind)), table)


# --------------------------------------------------------------------------- summaries


class _Summary:
    """What the summaries share: adding up the summaries of partitions, the first bad rows' messages."""

    rows: int
    bad: int
    first_errors: list[str]

    def _add_rows(self, result) -> np.ndarray:
        """Count one chunk's rows and bad rows, keep the messages of the first five bad rows; returns
        ``(N,) bool``, the rows worked out (not flagged)."""
        error = np.asarray(result.error)
        ok = error == 0
        self.rows += len(error)
        self.bad += int((~ok).sum())
        for i in np.flatnonzero(error)[: 5 - len(self.first_errors)]:
            self.first_errors.append(result.messages.get(int(i), f"row ?: error code {int(error[i])}"))
        return ok

    def merge(self, part: dict) -> None:
        """Add one partition's :func:`partition_summary` (partitions taken in input order)."""
        for name, value in part.items():
            if name == "first_errors":
                self.first_errors.extend(value[: 5 - len(self.first_errors)])
            elif isinstance(value, (int, float, np.ndarray)) and not isinstance(value, bool):
                setattr(self, name, getattr(self, name) + value)


_ROW_INDEX = {rid: r for r, rid in enumerate(ROW_IDS)}


class ScoreSummary(_Summary):
    """Running totals over score chunks (:class:`~fastscore.BatchResult`).

    Attributes
    ----------
    rows, bad : int
        Rows, and rows flagged as bad input.
    shapes : ndarray, shape (len(SHAPE_NAMES) + 1,), int64
        Scored rows per shape; index 0: no interpretation (not a win).
    legal, payout : int
        Legal hands; the sum of the payouts (points) of the scored rows.
    row_hits : ndarray, shape (len(ROW_IDS),), int64
        Scored rows that score each row id of the catalog (0 for the rows not in force).
    rows_tallied : int
        Rows whose points per row were worked out and counted in ``row_hits`` (none with ``--rows none``).
    first_errors : list of str
        The messages of the first five bad rows.
    """

    def __init__(self):
        self.rows = self.bad = self.legal = self.payout = self.rows_tallied = 0
        self.shapes = np.zeros(len(SHAPE_NAMES) + 1, dtype=np.int64)  # index 0: no interpretation
        self.row_hits = np.zeros(len(ROW_IDS), dtype=np.int64)
        self.first_errors: list[str] = []

    def add(self, result) -> None:
        """Add one chunk's result."""
        ok = self._add_rows(result)
        self.shapes += np.bincount(result.shape[ok].astype(np.int64) + 1, minlength=len(self.shapes))
        self.legal += int(result.legal[ok].sum())
        self.payout += int(result.payout[ok].sum(dtype=np.int64))
        if result.row_ids:  # none from score_batch(..., rows=False)
            columns = [_ROW_INDEX[rid] for rid in result.row_ids]
            self.row_hits[columns] += result.row_counts()  # flagged rows score no row
            self.rows_tallied += len(result)


class WaitsSummary(_Summary):
    """Running totals over waits chunks (:class:`~fastscore.WaitsResult`).

    Attributes
    ----------
    rows, bad : int
        Rows, and rows flagged as bad input.
    n_waits : ndarray, shape (35,), int64
        Analysed rows by their number of waits (0: not ready).
    tile_hits : ndarray, shape (34,), int64
        Analysed rows that wait on each tile.
    first_errors : list of str
        The messages of the first five bad rows.
    """

    def __init__(self):
        self.rows = self.bad = 0
        self.n_waits = np.zeros(35, dtype=np.int64)
        self.tile_hits = np.zeros(34, dtype=np.int64)
        self.first_errors: list[str] = []

    def add(self, result) -> None:
        """Add one chunk's result."""
        ok = self._add_rows(result)
        self.n_waits += np.bincount(np.asarray(result.n_waits)[ok].astype(np.int64), minlength=35)[:35]
        self.tile_hits += np.asarray(result.mask)[ok].sum(axis=0)


#: Length of a shanten histogram: index ``s + 1`` counts shanten ``s``, -1 (complete) to 16.
SHANTEN_BINS = 18


def _histogram(shanten: np.ndarray) -> np.ndarray:
    """``(SHANTEN_BINS,) int64`` counts of the values of ``shanten`` (-1 .. 16)."""
    return np.bincount(shanten.astype(np.int64) + 1, minlength=SHANTEN_BINS)[:SHANTEN_BINS]


class ShantenSummary(_Summary):
    """Running totals over shanten chunks (:class:`~fastscore.ShantenResult`).

    Attributes
    ----------
    rows, bad : int
        Rows, and rows flagged as bad input.
    shanten : ndarray, shape (SHANTEN_BINS,), int64
        Analysed rows by their best shanten: index ``s + 1`` for shanten ``s`` (index 0: complete
        17-tile hands, 1: ready, ...).
    first_errors : list of str
        The messages of the first five bad rows.
    """

    def __init__(self):
        self.rows = self.bad = 0
        self.shanten = np.zeros(SHANTEN_BINS, dtype=np.int64)
        self.first_errors: list[str] = []

    def add(self, result) -> None:
        """Add one chunk's result."""
        ok = self._add_rows(result)
        self.shanten += _histogram(result.shanten[ok])


class DiscardsSummary(_Summary):
    """Running totals over discard chunks (:class:`~fastscore.DiscardResult`).

    Attributes
    ----------
    rows, bad : int
        Rows, and rows flagged as bad input.
    shanten : ndarray, shape (SHANTEN_BINS,), int64
        Analysed rows by their shanten after the best discard: index ``s + 1`` for shanten ``s``
        (index 1: a discard leaves the hand ready).
    ready_discards : int
        The (hand, discard) pairs that leave a hand ready, over all analysed rows.
    first_errors : list of str
        The messages of the first five bad rows.
    """

    def __init__(self):
        self.rows = self.bad = self.ready_discards = 0
        self.shanten = np.zeros(SHANTEN_BINS, dtype=np.int64)
        self.first_errors: list[str] = []

    def add(self, result) -> None:
        """Add one chunk's result."""
        ok = self._add_rows(result)
        self.shanten += _histogram(result.best_shanten[ok])
        self.ready_discards += int(result.ready_row.size)  # flagged rows have none


_SUMMARIES = {"score": ScoreSummary, "waits": WaitsSummary, "shanten": ShantenSummary, "discards": DiscardsSummary}


def new_summary(kind: str) -> ScoreSummary | WaitsSummary | ShantenSummary | DiscardsSummary:
    """An empty summary of ``kind``: :class:`ScoreSummary`, :class:`WaitsSummary`, :class:`ShantenSummary`
    or :class:`DiscardsSummary`."""
    return _SUMMARIES[kind]()


def partition_summary(kind: str, result) -> dict:
    """The summary of one partition's result as plain picklable values (run on a Dask worker;
    added up with :meth:`ScoreSummary.merge`)."""
    summary = new_summary(kind)
    summary.add(result)
    return dict(vars(summary))


# --------------------------------------------------------------------------- the pipeline


def sample_chunks(kind: str, n: int, seed: int, chunk_rows: int, first: int = 0) -> Iterator[HandBatch]:
    """``n`` generated hands, generated chunk by chunk from hand ``first`` on: winning for ``"score"``
    (:func:`fastscore.sample_winning`), ready for ``"waits"`` (:func:`fastscore.sample_ready`), dealt from a
    shuffled wall for ``"shanten"`` (16 tiles) and ``"discards"`` (17: the draw in ``win``;
    :func:`fastscore.sample.sample_dealt`).  Hand ``i`` is the same whatever ``chunk_rows``."""
    from functools import partial

    from .sample import sample_dealt, sample_ready, sample_winning

    generate = {"score": sample_winning, "waits": sample_ready, "shanten": partial(sample_dealt, n_tiles=16),
                "discards": partial(sample_dealt, n_tiles=17)}[kind]
    for start in range(first, n, chunk_rows):
        yield generate(min(chunk_rows, n - start), seed, start=start)


def run_chunks(kind: str, chunks: Iterable[HandBatch], table: RuleTable, *, writer=None, with_input: bool = False,
               on_result: Callable | None = None, progress=None, kernel=contextlib.nullcontext,
               rows: bool = True) -> int:
    """Process ``chunks`` in order and write each result: the loop of every chunked job.

    Parameters
    ----------
    kind : {"score", "waits", "shanten", "discards"}
        What each chunk goes through (:func:`processor`).
    chunks : iterable of HandBatch, or of (HandBatch, pyarrow.Table)
        The hands, in output order; with the chunk's kept columns (:func:`fastscore.io.iter_chunks`).
    table : RuleTable
        The rule table.
    writer : ResultWriter, optional
        Where each result goes, at :attr:`~fastscore.io.ResultWriter.rows_written`.
    with_input : bool
        Write each chunk's hands beside its results (the writer was opened ``with_input=True``).
    on_result : callable, optional
        Called with each chunk's result (a summary's ``add``).
    progress : object with ``update(n)``, optional
        Advanced by each chunk's rows (:func:`fastscore._progress.progress_bar`).
    kernel : callable
        A context manager factory around each kernel call (Dask: one kernel call at a time per
        worker, with its thread count).
    rows : bool
        ``"score"``: work out the points per row (False for an output without row columns: faster).

    Returns
    -------
    int
        Rows processed.

    Raises
    ------
    ValueError, OSError
        From reading ``chunks`` or from the writer.
    """
    process = processor(kind, rows)
    done = 0
    for batch in chunks:
        batch, kept = batch if isinstance(batch, tuple) else (batch, None)
        with kernel():
            result = process(batch, table)
        if on_result is not None:
            on_result(result)
        if writer is not None:
            writer.write(result, writer.rows_written, batch=batch if with_input else None, kept=kept)
        if progress is not None:
            progress.update(len(batch))
        done += len(batch)
    return done


def job_description(kind: str, input: Path | None, sample: int | None, seed: int, table: RuleTable,
                    keep=()) -> dict:
    """What makes a batch job's rows, as the output's parts folder records it (:mod:`fastscore.io.parts`):
    the command, a hash of the rule table's contents, the kept columns (``--keep``, when any), and the
    input file's resolved path, size and SHA-256 digest (its contents, not its modification time: an input edited in place with its
    size and time restored still differs) or the ``--sample`` size and seed (not the chunk size).

    The digest reads the whole input once (about 0.7 GB/s here: 0.1 s for a million JSON lines)."""
    digest = hashlib.sha256()
    for array in (table.points, table.tiers, table.replaces, table.order, table.shape_mask, table.minimum,
                  np.int64(table.chicken_points), table.in_force,
                  np.array([table.chicken_rule, table.pay_base, table.pay_unit], dtype=np.int64)):
        array = np.ascontiguousarray(array)
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array.tobytes())
    job: dict = {"command": COMMANDS[kind], "rules": f"sha256:{digest.hexdigest()[:16]}"}
    if input is not None:
        with open(input, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            content = hashlib.file_digest(f, "sha256").hexdigest()
        job["input"] = {"path": str(input.resolve()), "size": size, "sha256": content}
    else:
        job["sample"] = {"rows": sample, "seed": seed}
    if keep:
        job["keep"] = list(keep)
    return job


def input_state(path: Path) -> tuple[int, int]:
    """``(size, modification time in ns)`` of an input file: compared before and after a job reads it."""
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def check_input_unchanged(path: Path, before: tuple[int, int]) -> None:
    """Raise ValueError when the input ``path`` changed (size or modification time) since ``before``
    (:func:`input_state`, taken when the job opened it): its rows may be a mix of two files."""
    try:
        now = input_state(path)
    except FileNotFoundError:
        raise ValueError(f"{path}: the input was removed while the job read it; nothing is written") from None
    if now != before:
        raise ValueError(f"{path}: the input changed while the job read it (size {before[0]:,} -> {now[0]:,} "
                         f"bytes, modified again); its rows may mix old and new records, so nothing "
                         f"is written: run again on an input that stays as it is")


def kept_parts_message(writer, interrupted: bool) -> str | None:
    """After a run stopped early (Ctrl-C, or an error): which rows its parts folder keeps for
    ``--resume``; None when it keeps none."""
    if writer is None or writer.parts_path is None or not writer.parts_path.exists():
        return None
    kept = f"the first {writer.kept_rows:,} rows are kept in {writer.parts_path}"
    if interrupted:
        return f"interrupted: {kept}; run the same command with --resume to continue"
    # a --resume reads the same input again: of use only after a passing fault (a read error, say)
    return f"stopped: {kept}; --resume continues from there if the input, unchanged, reads again"


def no_thread(exc: BaseException) -> bool:
    """``exc`` is Python's error for a thread it could not start (out of memory, or a process limit)."""
    return isinstance(exc, RuntimeError) and "can't start new thread" in str(exc)


def stop_message(exc: BaseException, output: Path | None) -> str:
    """What to print after ``error:`` when a job stops on ``exc``: its message; out of memory and a full
    disk (whose own messages say little) with what to do."""
    if isinstance(exc, MemoryError) or no_thread(exc):
        return ("out of memory; give the job more memory or a smaller --chunk-rows (a job holds a few "
                "chunks at once: one read ahead, one scored, one written)")
    message = str(exc)
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC and output is not None:
        message += (f"; a job needs free space of about 4 times its output's size while it runs (its parts, "
                    f"the partial file and the final file, in {output.parent})")
    return message


def check_output_folder(output: Path) -> None:
    """Raise ValueError naming the folder when ``output``'s folder does not exist (before any work)."""
    if not output.parent.is_dir():
        raise ValueError(f"{output}: the folder {output.parent} does not exist")


class BatchJob:
    """``fastscore batch`` / ``waits-batch`` / ``shanten-batch`` / ``discards-batch`` on one machine: read (or
    generate), process, write resumably.

    Made in three steps, each raising ValueError or OSError with the message to print:
    the constructor checks the paths, :meth:`open` loads the kernels and opens the
    output (taking up an interrupted run's parts with ``resume``), :meth:`run` processes
    every chunk.

    Parameters
    ----------
    kind : {"score", "waits", "shanten", "discards"}
        :data:`KINDS`; rows of ``"score"`` and ``"discards"`` need a ``win`` (:func:`require_win_of`).
    input : Path, optional
        Hand records (:func:`fastscore.io.iter_batches`); or ``sample`` hands generated.
    output : Path, optional
        The result file, written resumably; None for a summary only.
    sample, seed : int
        ``sample`` generated hands of ``seed`` (:func:`sample_chunks`), written with their input columns.
    table : RuleTable
    chunk_rows : int
    resume : bool
        Take up an interrupted run's parts (:func:`fastscore.io.open_writer`).
    keep : sequence of str
        Input columns fastscore does not read, copied to the output first (``--keep``;
        :func:`fastscore.io.check_input`); not with ``sample``.
    rows : {"dense", "sparse", "none"}, optional
        The score output's row points (``--rows``; :func:`fastscore.io.open_writer`).
    waits_json : bool
        The waits output also holds the ``waits_json`` text column (``--waits-json``).

    Attributes
    ----------
    total : int or None
        Rows to do, when known before reading (Parquet, samples).
    writer : ResultWriter or None
        After :meth:`open`.
    first : int
        The row this run starts at (after :meth:`open`): the kept rows of an interrupted run.
    summary : ScoreSummary, WaitsSummary, ShantenSummary or DiscardsSummary
        This run's rows (:func:`new_summary`).
    seconds : float
        Wall time of :meth:`run`.
    """

    def __init__(self, kind: str, *, input: Path | None, output: Path | None, sample: int | None, seed: int,
                 table: RuleTable, chunk_rows: int, resume: bool = False, keep=(), rows: str | None = None,
                 waits_json: bool = False):
        self.kind, self.input, self.output, self.sample, self.seed = kind, input, output, sample, seed
        self.rows, self.waits_json = rows, waits_json
        self.table, self.chunk_rows, self.resume = table, chunk_rows, resume
        self.keep = io.check_keep(keep)
        self.kept = None  # the kept columns' schema
        self.summary = new_summary(kind)
        self.writer = None
        self.first = 0
        self.seconds = 0.0
        self._chunks = None
        self._input_state = None
        if output is not None:
            io.file_format(output)
            check_output_folder(output)
        if rows is not None:
            io.schemas.rows_layout(rows, "parquet")  # an unknown layout, before anything starts
        if input is not None:
            if output is not None and output.resolve() == input.resolve():
                raise ValueError(f"{output}: the output would replace the input")
            # Every column read, kept or refused before anything starts (no row is scored first).
            self.kept = io.check_input(input, keep=self.keep, require_win=require_win_of(kind))
            self.total = io.count_rows(input)
        else:
            if self.keep:
                raise ValueError("--keep copies columns of INPUT; --sample has none (its hands' own columns are "
                                 "written already)")
            self.total = sample

    def open(self) -> None:
        """Take the output's lock, then load the kernels, read the input's digest, open the output
        (resumably) and the input from the first row to do.  The lock comes before anything slow: a
        second job on the same output stops at once rather than after its start-up, when the first
        may have finished and its output would be overwritten."""
        lock = OutputLock(self.output) if self.output is not None else None
        try:
            if self.input is not None:
                self._input_state = input_state(self.input)
            warm(self.kind, self.table)  # load the kernels first
            if self.output is not None:
                job = job_description(self.kind, self.input, self.sample, self.seed, self.table, self.keep)
                self.writer = io.open_writer(self.output, self.kind, with_input=self.sample is not None,
                                             resume=self.resume, job=job, lock=lock, kept=self.kept,
                                             rows=self.rows, waits_json=self.waits_json,
                                             row_ids=self.table.row_ids if self.kind == "score" else None)
        except BaseException:
            if lock is not None and self.writer is None:
                lock.release()
            raise
        self.first = self.writer.rows_written if self.writer is not None else 0
        if self.input is not None:
            self._chunks = io.iter_chunks(self.input, require_win=require_win_of(self.kind), chunk_rows=self.chunk_rows,
                                          start_row=self.first, keep=self.keep)
        else:
            self._chunks = sample_chunks(self.kind, self.sample, self.seed, self.chunk_rows, self.first)

    def run(self, progress=None) -> None:
        """Process and write every chunk (the next read while the current one is processed), then
        close the output; on an exception the output is aborted, its completed parts kept.

        Raises
        ------
        ValueError
            Also when the input changed while it was read (:func:`check_input_unchanged`): the
            output is not written."""
        start = time.perf_counter()
        with self.writer if self.writer is not None else contextlib.nullcontext():
            run_chunks(self.kind, io.read_ahead(self._chunks), self.table, writer=self.writer,
                       with_input=self.sample is not None, on_result=self.summary.add, progress=progress,
                       rows=self.writer is None or self.writer.rows != "none")
            if self.input is not None:
                check_input_unchanged(self.input, self._input_state)
        self.seconds = time.perf_counter() - start


def encode_hands(output: Path, *, input: Path | None, sample: int | None, seed: int, waits: bool,
                 chunk_rows: int, keep=()) -> tuple[int, int]:
    """``fastscore encode``: parse ``input`` once (or generate ``sample`` hands) and write them as
    encoded hands (:func:`fastscore.io.write_encoded`) to ``output``, with the input's columns ``keep``
    (``--keep``) after them.

    Returns
    -------
    (int, int)
        Rows written, and rows flagged as bad input (kept with their messages).

    Raises
    ------
    ValueError, OSError
        ``output`` not Parquet, its folder missing, the same file as ``input``; an unreadable input;
        ``keep`` with ``sample``, or a kept column the input lacks (:func:`fastscore.io.check_input`).
    """
    keep = io.check_keep(keep)
    if keep and input is None:
        raise ValueError("--keep copies columns of INPUT; --sample has none")
    if io.file_format(output) != "parquet":
        raise ValueError(f"{output}: encoded hands are written to Parquet (.parquet or .pq)")
    check_output_folder(output)
    if input is not None and output.resolve() == input.resolve():
        raise ValueError(f"{output}: the output would replace the input")
    bad = 0
    if input is not None:
        # no such file, a column not read nor kept: before anything
        schema = io.check_input(input, keep=keep, require_win=not waits)
        kept = schema if keep else None
        before = input_state(input)
        chunks = io.iter_chunks(input, require_win=not waits, chunk_rows=chunk_rows, keep=keep)
    else:
        kept = None
        chunks = ((batch, None) for batch in sample_chunks("waits" if waits else "score", sample, seed, chunk_rows))

    def counted():
        nonlocal bad
        for batch, columns in chunks:
            bad += int((batch.error != 0).sum())
            yield (batch, columns) if keep else batch
        if input is not None:  # before the file is renamed into place (write_encoded: on exhaustion)
            check_input_unchanged(input, before)

    rows = io.write_encoded(counted(), output, waits=waits, keep=kept)
    return rows, bad
