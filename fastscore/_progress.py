"""The progress bar of the long jobs (batch, waits-batch, Dask jobs, surveys): one helper over ``rich.progress``.

:func:`progress_bar` is the only place fastscore draws progress; rich is
imported when a bar is made, not when fastscore is.  The bar goes to stderr.
On a terminal it is redrawn in place; elsewhere (a pipe, a file, a test's
captured stderr) rich draws nothing while it runs and prints the final state
once when the bar closes, so a forced bar (``--progress``) still leaves one
line in a log.
"""

from __future__ import annotations

import sys

__all__ = ["progress_bar"]


class _Bar:
    """A running bar: :meth:`update` advances it, :meth:`close` (or leaving the ``with``) ends it."""

    def __init__(self, progress, task):
        self._progress = progress
        self._task = task
        self._closed = progress is None

    def update(self, n: int = 1) -> None:
        """Advance by ``n`` (rows, hands: the bar's unit)."""
        if self._progress is not None:
            self._progress.advance(self._task, n)

    def close(self) -> None:
        """Stop the bar, leaving its final state on stderr (idempotent)."""
        if not self._closed:
            self._closed = True
            self._progress.stop()

    def __enter__(self) -> "_Bar":
        return self

    def __exit__(self, *exc) -> bool:
        self.close()
        return False


def progress_bar(total: int | None, description: str = "", disable: bool | None = None, *, unit: str = "rows",
                 initial: int = 0) -> _Bar:
    """A progress bar on stderr: description, bar, percentage, count, elapsed time, rate and time left.

    Parameters
    ----------
    total : int or None
        Units to do; None when unknown (no percentage nor time left, the bar pulses).
    description : str
        Shown before the bar (e.g. ``"survey"``); may be empty.
    disable : bool or None
        True: draw nothing.  None: draw only when stderr is a terminal.
    unit : str
        What is counted, for the count and the rate (``"rows"`` gives ``"12,345 rows/s"``).
    initial : int
        Units done already (a resumed run): shown as done, not counted in the rate.

    Returns
    -------
    object
        With ``update(n)`` (advance by ``n``) and ``close()``; a context manager that closes the
        bar on leaving.  Started already.

    Examples
    --------
    >>> with progress_bar(3, "demo", disable=True) as bar:
    ...     for _ in range(3):
    ...         bar.update(1)
    """
    if disable is None:
        disable = not sys.stderr.isatty()
    if disable:
        return _Bar(None, None)
    from rich.console import Console
    from rich.progress import BarColumn, Progress, ProgressColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class _Count(ProgressColumn):
        def render(self, task) -> Text:
            done = f"{int(task.completed):,}"
            return Text(f"{done}/{int(task.total):,} {unit}" if task.total is not None else f"{done} {unit}")

    class _Rate(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} {unit}/s" if speed is not None else f"? {unit}/s")

    class _Left(ProgressColumn):
        def render(self, task) -> Text:
            left = task.time_remaining
            if task.total is None or task.finished or left is None:
                return Text("")
            minutes, seconds = divmod(int(left), 60)
            return Text(f"{minutes}:{seconds:02d} left")

    columns = [TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), _Count(), TimeElapsedColumn(),
               _Rate(), _Left()]
    progress = Progress(*columns, console=Console(file=sys.stderr, highlight=False), transient=False)
    task = progress.add_task(description, total=total, completed=initial)
    progress.start()
    return _Bar(progress, task)
