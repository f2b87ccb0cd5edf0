"""Scoring, waits, shanten and discard analysis of Parquet datasets on a Dask cluster (optional: ``pip install 'fastscore[dask]'``).

fastscore has no scheduler of its own: :func:`score_parquet`, :func:`waits_parquet`,
:func:`shanten_parquet` and :func:`discards_parquet` cut the input into partitions of whole
Parquet row groups (about ``partition_rows`` rows each), hand one task per partition to a
``distributed`` client, and each task reads its rows, processes them with the same kernels as the
single-machine job (:func:`fastscore.jobs.processor`) and writes its results with
:func:`fastscore.io.open_writer`.
The output is a Parquet dataset, a folder of ``part.<i>.parquet`` files (``i``
zero-padded to one width, so that any reader's name order is the input
order), one result row per input row, in input order, with exactly the schema
of the single-machine job's Parquet output, and an empty ``_SUCCESS`` file.
The folder gets its name only when complete: the parts are written into a
hidden ``.<name>.partial-<token>`` folder beside it, renamed once every part
is written, so an interrupted job (the client killed included) leaves no
folder under that name, or an older output whole (``overwrite=True``
replaces it only then).

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

The package: :mod:`.datasets` (Parquet jobs: partitions, tasks, parts),
:mod:`.surveys` (the survey's tasks) and :mod:`.cluster` (clients, workers,
kernel threads, warming).
"""

from __future__ import annotations

try:
    import distributed  # noqa: F401  (the extra is installed)
    from distributed.comm import get_address_host  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised in a subprocess (tests/test_dask.py)
    raise ImportError(
        f"fastscore.dask needs dask and distributed ({exc.name} is missing): pip install 'fastscore[dask]'"
    ) from exc

from .cluster import connect, kernel_threads_by_host, local_cluster, warm_workers
from .datasets import (
    DEFAULT_PARTITION_ROWS,
    DatasetResult,
    Partition,
    discards_parquet,
    plan_partitions,
    score_parquet,
    shanten_parquet,
    waits_parquet,
)
from .surveys import DEFAULT_SURVEY_PARTITION, survey

__all__ = [
    "DEFAULT_PARTITION_ROWS",
    "DEFAULT_SURVEY_PARTITION",
    "DatasetResult",
    "Partition",
    "connect",
    "discards_parquet",
    "kernel_threads_by_host",
    "local_cluster",
    "plan_partitions",
    "score_parquet",
    "shanten_parquet",
    "survey",
    "waits_parquet",
    "warm_workers",
]
