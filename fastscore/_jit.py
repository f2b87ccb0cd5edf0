"""The one place that calls ``numba.njit``.

Every kernel is compiled with ``cache=True`` so that a second process loads the
machine code from the cache instead of compiling it again.  The cache is the
folder :func:`fastscore._cache.kernel_cache_dir` (one per version of the
package's sources, so that no kernel loads code compiled against an older
version of a function it inlines); ``NUMBA_CACHE_DIR`` overrides it.  Set
``NUMBA_DISABLE_JIT=1`` to run the kernels as plain Python (coverage, debugging).
"""

from __future__ import annotations

import os
import types
from functools import lru_cache

import numba

from ._cache import kernel_cache_dir

if not os.environ.get("NUMBA_CACHE_DIR"):
    # Read by numba when each dispatcher below sets up its cache, so it must be set before any kernel is defined.
    numba.config.CACHE_DIR = str(kernel_cache_dir())

__all__ = ["BatchKernel", "jit", "jit_batch", "jit_inline", "jit_parallel", "prange", "SERIAL_MAX_ROWS",
           "PARALLEL_MIN_ROWS", "threads_may_share_kernels"]

prange = numba.prange

#: Batches of at most this many rows run a :class:`BatchKernel`'s serial build: waking numba's
#: thread pool costs about a millisecond, which is more than the work on a small batch.
SERIAL_MAX_ROWS = 1023
#: The smallest batch that runs a :class:`BatchKernel`'s parallel build.
PARALLEL_MIN_ROWS = SERIAL_MAX_ROWS + 1


def jit(func):
    """Compile ``func`` in nopython mode with the on-disk cache."""
    return numba.njit(cache=True, nogil=True)(func)


def jit_inline(func):
    """Like :func:`jit`, and inlined into compiled callers at numba's IR level (``inline='always'``).

    For small helpers on the hot path that take arrays: numba counts the
    references of every array passed to a call it does not inline, on every
    call.  Each caller compiles its own copy, so use it for small functions.
    """
    return numba.njit(cache=True, nogil=True, inline="always")(func)


def jit_parallel(func):
    """Like :func:`jit`, with ``parallel=True`` for kernels that ``prange`` over hands.

    The function is compiled as a renamed twin (``<name>_parallel``): numba's
    disk cache names its entries by function, not by compile flags, so the
    same function compiled both serial and parallel would otherwise load
    whichever build was cached first.
    """
    twin = types.FunctionType(func.__code__, func.__globals__, f"{func.__name__}_parallel", func.__defaults__,
                              func.__closure__)
    twin.__qualname__ = f"{func.__qualname__}_parallel"
    twin.__module__ = func.__module__
    twin.__doc__ = func.__doc__
    return numba.njit(cache=True, nogil=True, parallel=True)(twin)


class BatchKernel:
    """A kernel over the rows of a batch, compiled serial and parallel; calls pick by size.

    The first argument must be an array whose first axis is the rows: a
    batch of at most :data:`SERIAL_MAX_ROWS` rows runs the serial build (a single
    hand never starts the thread pool, nor loads the parallel build), a larger
    one the parallel build.  Both builds are compiled lazily, on first use.
    """

    def __init__(self, func):
        self.serial = jit(func)
        self.parallel = jit_parallel(func)
        self.__doc__ = func.__doc__
        self.__name__ = func.__name__

    def __call__(self, rows, *args):
        kernel = self.parallel if rows.shape[0] > SERIAL_MAX_ROWS else self.serial
        return kernel(rows, *args)


def jit_batch(func) -> BatchKernel:
    """Compile ``func`` (a loop with ``prange`` over the rows of its first argument) as a :class:`BatchKernel`."""
    return BatchKernel(func)


@lru_cache(maxsize=1)
def threads_may_share_kernels() -> bool:
    """True when two Python threads may run parallel kernels at the same time.

    numba's ``omp`` and ``tbb`` threading layers allow it; ``workqueue``, the
    fallback where neither OpenMP nor TBB is installed, aborts the process
    ("Concurrent access has been detected").  Pipelines that run kernels on
    background threads (:func:`fastscore.io.read_ahead`, the result writers)
    run them on the caller's thread instead when this is False.  Starts
    numba's thread pool (as the first parallel kernel would) to learn which
    layer it chose.
    """
    from numba.np.ufunc import parallel

    parallel._launch_threads()
    return numba.threading_layer() != "workqueue"
