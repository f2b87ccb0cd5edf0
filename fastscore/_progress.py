"""One progress bar for every long job: :mod:`rich.progress` on stderr.

:func:`progress_bar` is the only place that builds a bar; rich is imported
when a bar is made, so importing fastscore does not load it.
"""

from __future__ import annotations

__all__ = ["progress_bar"]


class _Bar:
    """A started-on-enter, stopped-on-exit rich progress bar with one task."""

    def __init__(self, total: int | None, description: str, disable: bool) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=False,
            disable=disable,
        )
        self._task = self._progress.add_task(description, total=total)

    def update(self, n: int = 1) -> None:
        """Advance the bar by ``n`` units of work."""
        self._progress.advance(self._task, n)

    def __enter__(self) -> "_Bar":
        self._progress.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._progress.stop()


def progress_bar(total: int | None, description: str, disable: bool = False) -> _Bar:
    """A progress bar on stderr, to be used as a context manager.

    Parameters
    ----------
    total : int or None
        Units of work (rows, hands) when known; None shows an indeterminate bar.
    description : str
        Label at the left of the bar.
    disable : bool
        No output at all (the bar's ``update`` still works, and does nothing visible).

    Returns
    -------
    context manager
        Entering starts the bar and returns an object whose ``update(n)``
        advances it by ``n``; leaving stops it (the last state stays on screen).

    Examples
    --------
    >>> with progress_bar(3, "work", disable=True) as bar:
    ...     for _ in range(3):
    ...         bar.update(1)
    """
    return _Bar(total, description, disable)
