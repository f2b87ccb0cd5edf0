"""Clients and workers for :mod:`fastscore.dask`: a local cluster or a scheduler's address, the numba
threads of each task, one kernel call at a time per worker process, and warming the kernels."""

from __future__ import annotations

import asyncio
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import distributed
from distributed.comm import get_address_host

from .. import io, jobs
from ..batch import HandBatch
from ..rules import RuleTable, resolve_rules
from ..warmup import warmup

__all__ = ["connect", "kernel_threads_by_host", "local_cluster", "warm_workers"]

#: One kernel call at a time per worker process: each call already runs on all
#: of numba's threads, and a worker with several Dask threads (or a warm-up
#: arriving through ``client.run``) must not start a second parallel region beside it.
_KERNEL_LOCK = threading.Lock()


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


def _cpu_count() -> int:
    from dask.system import CPU_COUNT  # cores this process may use (affinity and cgroup limits)

    return CPU_COUNT


def _warm(rules: RuleTable | None = None) -> float:
    """Load (or compile) every kernel in this process (:func:`fastscore.warmup.warmup`), and write one small
    Parquet file of each kind (the first write imports and sets up pyarrow); seconds taken."""
    start = time.perf_counter()
    table = resolve_rules(rules)
    with _KERNEL_LOCK:
        warmup(table)
    one = HandBatch.from_records([{"hand": "11m99m77p11s9s EE RR 333p", "win": "9s"}])
    with tempfile.TemporaryDirectory(prefix="fastscore-warm-") as folder:
        for kind in jobs.KINDS:
            with _KERNEL_LOCK:
                result = jobs.processor(kind)(one, table)
            with io.open_writer(Path(folder) / f"{kind}.parquet", kind,
                                row_ids=table.row_ids if kind == "score" else None) as writer:
                writer.write(result, 0)
    return time.perf_counter() - start


async def _warm_on_worker(rules: RuleTable | None = None) -> float:
    # In a thread, so that a cold compile (tens of seconds) does not block the worker's event loop.
    return await asyncio.to_thread(_warm, rules)


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
