"""The one place that calls ``numba.njit``.

Every kernel is compiled with ``cache=True`` so that a second process loads the
machine code from ``__pycache__`` instead of compiling it again.  Set
``NUMBA_DISABLE_JIT=1`` to run the kernels as plain Python (coverage, debugging).
"""

from __future__ import annotations

import numba

__all__ = ["jit", "jit_parallel", "prange"]

prange = numba.prange


def jit(func):
    """Compile ``func`` in nopython mode with the on-disk cache."""
    return numba.njit(cache=True, nogil=True)(func)


def jit_parallel(func):
    """Like :func:`jit`, with ``parallel=True`` for kernels that ``prange`` over hands."""
    return numba.njit(cache=True, nogil=True, parallel=True)(func)
