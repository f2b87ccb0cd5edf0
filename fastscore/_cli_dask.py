"""The ``--dask`` side of the command line: the cluster session (``batch``, ``waits-batch``, ``shanten-batch``,
``discards-batch``, ``survey``) and those batch commands on a cluster (:func:`fastscore.dask.score_parquet` ...).

Kept apart from :mod:`fastscore.cli` (the click commands); dask and distributed are imported only
when a command runs with ``--dask``.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from pathlib import Path

import click

from . import _display
from ._display import fail, rule_table

__all__ = ["dask_client", "dask_session", "run_dask"]


def dask_client(address: str):
    """``(client, cluster)`` for ``--dask ADDRESS`` (:func:`fastscore.dask.connect`); exit 2 naming the option."""
    from . import dask as fdask

    try:
        return fdask.connect(address)
    except ValueError as exc:
        fail(f"--dask {address}: {exc}")


@contextlib.contextmanager
def dask_session(address: str):
    """The client of ``--dask ADDRESS`` (and its LocalCluster, for ``local:N``), with the scheduler,
    worker count and dashboard link printed on stderr; both closed at the end."""
    client, cluster = dask_client(address)
    with client, cluster if cluster is not None else contextlib.nullcontext():
        info = client.scheduler_info()
        click.echo(f"dask: scheduler {info['address']}, {len(info['workers'])} workers, "
                   f"dashboard {client.dashboard_link}", err=True)
        yield client


def run_dask(*, kind: str, address: str, input: Path | None, output: Path | None, sample: int | None,
              rules: Path | None, chunk_rows: int, progress: bool | None, overwrite: bool, keep: str = "",
              rows: str | None = None, waits_json: bool = False) -> None:
    """``batch`` / ``waits-batch`` / ``shanten-batch`` / ``discards-batch`` with ``--dask``: one task per partition,
    a Parquet dataset out."""
    if sample is not None:
        fail("--sample runs on this machine only; with --dask give INPUT, a Parquet file or folder")
    if input is None:
        fail("give INPUT, a Parquet file or a folder of them")
    if output is None:
        fail("--dask needs -o FOLDER, where the workers write the result dataset")
    from . import jobs

    table = rule_table(rules)
    try:
        from . import dask as fdask

        from .dask.datasets import _prepare_output

        from .io import check_keep

        # a bad INPUT or OUTPUT fails here, before any cluster starts
        keep = keep.split(",") if keep else ()
        _prepare_output(output, overwrite, fdask.plan_partitions(input, chunk_rows, keep=check_keep(keep),
                                                                 require_win=jobs.require_win_of(kind)))
    except (ImportError, ValueError, OSError) as exc:
        fail(str(exc))
    import distributed

    with dask_session(address) as client:
        summary = jobs.new_summary(kind)
        if kind == "score":
            job = functools.partial(fdask.score_parquet, rows=rows or "dense", rules=table)
        elif kind == "waits":
            job = functools.partial(fdask.waits_parquet, waits_json=waits_json, rules=table)
        elif kind == "shanten":
            job = functools.partial(fdask.shanten_parquet, rules=table)
        else:
            job = functools.partial(fdask.discards_parquet, rules=table)
        show = progress if progress is not None else sys.stderr.isatty()
        try:
            done = job(input, output, client=client, partition_rows=chunk_rows, overwrite=overwrite,
                       keep=keep, summarize=functools.partial(jobs.partition_summary, kind), progress=show)
        except (ValueError, OSError, distributed.KilledWorker) as exc:
            fail(str(exc))
    for part in done.summaries:
        summary.merge(part)

    console = _display.console()
    _display.print_bad_rows(summary.first_errors, done.bad_rows)
    console.print(_display.totals_line(done.rows, done.bad_rows, done.seconds))
    console.print(f"wrote {output} ({len(done.paths)} parts)")
    _display.print_summary(kind, summary, console)
