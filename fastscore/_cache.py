"""Where fastscore keeps what it builds once: the per-suit tables and numba's compiled kernels.

Both live in the user cache folder (:func:`user_cache_dir`): ``$FASTSCORE_CACHE``,
else ``$XDG_CACHE_HOME/fastscore``, else ``~/.cache/fastscore``.

Compiled kernels go to ``numba-<digest>`` there (:func:`kernel_cache_dir`),
``<digest>`` a hash of every ``.py`` file of the package (subpackages included)
and of its folder (numba keys its entries by the source path too, so each
checkout gets its own folder and the command line's "first run" notice is right
for it).  numba's own cache checks only the file that defines a kernel, not the
files of the functions it calls and inlines, so after an edit to one module (or
an upgrade that keeps file dates) a kernel elsewhere could load stale machine
code; a new digest means a fresh folder and one compile.  ``NUMBA_CACHE_DIR``,
when set, is used as it is (numba's own locator then caches every function
there, see :mod:`fastscore._jit`).  Old ``numba-*`` folders can be deleted at
any time.  The per-suit tables are keyed the same way, on a digest of the file
that generates them (:func:`fastscore.tables.table_digest`).

This module imports neither numba nor numpy (the command line's start-up check uses it).
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

__all__ = ["FIRST_RUN", "PACKAGE_DIR", "first_run_notice", "kernel_cache_dir", "kernels_compiled", "source_digest",
           "user_cache_dir"]

#: The fastscore package folder, symbolic links resolved.
PACKAGE_DIR = Path(__file__).resolve().parent


def user_cache_dir() -> Path:
    """``$FASTSCORE_CACHE``, else ``$XDG_CACHE_HOME/fastscore``, else ``~/.cache/fastscore``."""
    if os.environ.get("FASTSCORE_CACHE"):
        return Path(os.environ["FASTSCORE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "fastscore"


@lru_cache(maxsize=1)
def source_digest() -> str:
    """16 hex digits of a SHA-256 over the package's folder and its ``.py`` files, subpackages included
    (relative paths and contents, in path order)."""
    h = hashlib.sha256(str(PACKAGE_DIR).encode() + b"\0")
    for name, path in sorted((p.relative_to(PACKAGE_DIR).as_posix(), p) for p in PACKAGE_DIR.rglob("*.py")):
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def kernel_cache_dir() -> Path:
    """numba's cache folder for fastscore: ``$NUMBA_CACHE_DIR`` if set, else ``numba-<digest>``
    in :func:`user_cache_dir`."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    return user_cache_dir() / f"numba-{source_digest()}"


#: What fastscore says the first time the kernels of a checkout are compiled.
FIRST_RUN = "first run: compiling the kernels once (a few minutes); later runs load them from the cache"
_announced = False  # the notice was given in this process


def kernels_compiled() -> bool:
    """True when this checkout's scoring path (``fastscore/kernels/score.py``) or batch loops (``batch_loops.py``:
    scoring, the win check) are in the cache (or numba is off: nothing to compile)."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return True
    return any(p.name.startswith(("score.", "batch_loops.")) for p in kernel_cache_dir().rglob("*.nbi"))


def first_run_notice() -> str | None:
    """:data:`FIRST_RUN` the first time a process asks while the kernels are not compiled yet, else None
    (the command line prints it; the library logs it, :func:`fastscore.tables.kernel_tables`)."""
    global _announced
    if _announced or kernels_compiled():
        return None
    _announced = True
    return FIRST_RUN
