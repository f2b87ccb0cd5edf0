"""One writer per output file: an advisory lock beside it, held while a run writes it.

Two runs given the same OUTPUT would otherwise share its hidden partial file
and parts folder; the second would take the first's parts for an interrupted
run's and remove them.  :class:`OutputLock` takes ``.<name>.lock`` in the
output's folder with ``flock`` (released by the operating system when the
process ends, however it ends), so the second run stops at once with a clear
message and touches nothing.  The lock is let go by :meth:`OutputLock.release`,
or when the lock object is garbage-collected (a writer dropped without being
closed, in a notebook say).  On systems without ``fcntl`` (Windows) there is
no lock.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None


def _let_go(path: Path, fd: int) -> None:
    """Remove the lock file ``path`` and close ``fd``, letting go of its lock."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    os.close(fd)


class OutputLock:
    """The lock of the output ``path``: ``.<name>.lock`` beside it, taken by the constructor.

    Use :meth:`release`, or the lock as a context manager.

    Raises
    ------
    ValueError
        Another process holds it (a run writing the same output).
    """

    def __init__(self, path: str | os.PathLike):
        path = Path(path)
        self.path = path.with_name(f".{path.name}.lock")
        self._finalizer = None
        if fcntl is None:  # pragma: no cover - Windows
            return
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # another open file description holds it
                os.close(fd)
                raise ValueError(f"{path}: another run is writing this output (it holds {self.path}); "
                                 f"wait for it to finish, or give another output") from None
            except OSError:
                os.close(fd)
                raise
            # The holder before us removes the file as it lets go: if ours is no longer the file at
            # the path, a third run may have made a new one and locked that; try again on it.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                self._finalizer = weakref.finalize(self, _let_go, self.path, fd)
                return
            os.close(fd)

    def release(self) -> None:
        """Remove the lock file and let go (idempotent)."""
        if self._finalizer is not None:
            self._finalizer()  # runs once

    def __enter__(self) -> "OutputLock":
        return self

    def __exit__(self, *exc) -> None:
        self.release()
