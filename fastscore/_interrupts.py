"""Signals that stop a command as Ctrl-C does, once, however often they come.

The command line (:class:`fastscore.cli._Commands`) runs each command inside
:func:`stop_signals`: SIGINT, SIGTERM and SIGHUP raise KeyboardInterrupt, so a
job waits for the chunk being written (at most one), keeps its parts and says
so in one line (written inside :func:`stop_line`), then exits 130.  A second
signal during that cleanup ends the process at once, also with exit 130 and one
line ("interrupted", unless the cleanup's line is written); nothing is lost by it
(parts are written under another name and renamed), and the next run removes
what the cleanup would have removed (the partial output, a half-written part).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading

__all__ = ["STOP_SIGNALS", "stop_line", "stop_signals"]

#: The signals a command stops on as on Ctrl-C.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class _State:
    received = False  # a stop signal came during the command
    said = False  # the stop's one line is written
    writing = False  # the stop's one line is being written (stop_line)
    pending = False  # a stop signal came while it was


def _on_signal(signum, frame) -> None:
    """The first stop signal raises KeyboardInterrupt; a second one ends the process with exit 130,
    saying "interrupted" unless the stop's line is already written. One that comes while the line
    is being written waits for the end of :func:`stop_line`."""
    if _State.writing:
        _State.pending = True
        return
    if _State.received:
        _end()
    _State.received = True
    raise KeyboardInterrupt


def _end() -> None:
    """End the process at once with exit 130, writing "interrupted" unless the stop's line is written."""
    if not _State.said:
        os.write(2, b"interrupted\n")
    os._exit(130)


@contextlib.contextmanager
def stop_line():
    """Around the one line a stopped command writes on stderr: a stop signal that comes meanwhile
    waits until it is written, and then, as one that comes later, ends the process without a second
    line.  (Python runs signal handlers in the main thread, between bytecodes, whichever thread
    received the signal: a flag defers them, where a signal mask would cover only one thread.)"""
    _State.writing = True
    try:
        yield
        _State.said = True
    finally:
        _State.writing = False
        if _State.pending:
            _end()


@contextlib.contextmanager
def stop_signals():
    """Within the block, each of :data:`STOP_SIGNALS` that has its default handler (Python's for SIGINT)
    is handled as the module docstring says, in the main thread only (elsewhere: nothing changes).
    Afterwards the handlers are put back; after a stop signal they are set to ignore (the process
    is ending, its one line said)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _State.received = _State.said = _State.writing = _State.pending = False
    previous = {}
    for signum in STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if handler is (signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL):
            previous[signum] = handler
            signal.signal(signum, _on_signal)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_IGN if _State.received else handler)
