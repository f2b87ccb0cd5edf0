"""Output folders replaced whole: written under a hidden name beside the target, renamed into place.

A job whose output is a folder (a Dask dataset, a survey report) writes it
into ``.<name>.partial-<token>`` in the target's parent folder (the same
file system, so the rename is atomic) and, once every file is written,
renames it to ``<name>``.  An older folder of that name is first renamed to
``.<name>.old-<token>`` and deleted after the new one is in place.  A reader
therefore sees the old folder whole or the new one whole (for the instant
between the two renames, no folder of that name at all), never a mix or a
part.

A run killed before the rename leaves its hidden partial folder; a run
killed between the two renames leaves the old folder under its hidden name.
:func:`sweep` tidies both at the next start: partial folders are removed, and
an old folder is put back under ``<name>`` when nothing took its place (it
was renamed whole and is deleted only after the new one is in), else
removed.  Callers hold :class:`fastscore._lock.OutputLock` on the target
while they sweep and write, so that a second run cannot sweep away the
first's partial folder.
"""

from __future__ import annotations

import os
import re
import shutil
import uuid
from pathlib import Path

__all__ = ["new_partial", "publish", "sweep", "target"]


def target(path) -> Path:
    """``path`` as a Path with a name (``.`` and ``..`` made absolute), whose parent is created if missing."""
    path = Path(path)
    if path.name in ("", ".", ".."):
        path = Path(os.path.abspath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _hidden(out: Path, what: str) -> re.Pattern:
    return re.compile(re.escape(f".{out.name}.{what}-") + r"[0-9a-f]{12}")


def sweep(out: Path) -> list[Path]:
    """Tidy what killed runs left beside ``out`` (module docstring); returns the paths removed or put back."""
    touched = []
    partial, old = _hidden(out, "partial"), _hidden(out, "old")
    for path in sorted(out.parent.iterdir()):
        if partial.fullmatch(path.name):
            shutil.rmtree(path, ignore_errors=True)
            touched.append(path)
        elif old.fullmatch(path.name):
            if out.exists():
                shutil.rmtree(path, ignore_errors=True)
            else:  # killed between the two renames of publish(): the old folder, whole, goes back
                os.rename(path, out)
            touched.append(path)
    return touched


def new_partial(out: Path) -> Path:
    """Create and return the hidden folder ``.<name>.partial-<token>`` beside ``out``."""
    path = out.with_name(f".{out.name}.partial-{uuid.uuid4().hex[:12]}")
    path.mkdir()
    return path


def publish(partial: Path, out: Path) -> None:
    """Rename the complete folder ``partial`` to ``out``; an existing ``out`` is renamed aside first and
    deleted once the new one is in place."""
    old = None
    if out.exists():
        old = out.with_name(f".{out.name}.old-{uuid.uuid4().hex[:12]}")
        os.rename(out, old)
    os.rename(partial, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
