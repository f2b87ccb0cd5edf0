"""The survey on a Dask cluster: one task per range of the hands, exact tallies added up (:func:`survey`)."""

from __future__ import annotations

import time
import uuid

import distributed

from .._progress import progress_bar
from ..survey import SurveyPart, SurveyPlan, SurveyResult, Tally, plan_survey, survey_range
from .cluster import _KERNEL_LOCK, _default_client, _numba_threads, kernel_threads_by_host, warm_workers

__all__ = ["DEFAULT_SURVEY_PARTITION", "survey"]

#: Source hands per survey task: 57 tasks over the 118,856,487 hands of the whole space, each a few
#: seconds of scoring (about 9 scorings per hand with ``win="uniform"``) and under 200 MB of memory.
DEFAULT_SURVEY_PARTITION = 1 << 21


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
