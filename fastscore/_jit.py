"""The one place that calls ``numba.njit``.

Every kernel is compiled with ``cache=True`` so that a second process loads the
machine code from ``__pycache__`` instead of compiling it again.  Set
``NUMBA_DISABLE_JIT=1`` to run the kernels as plain Python (coverage, debugging).
"""

from __future__ import annotations

import types

import numba

__all__ = ["jit", "jit_parallel", "prange"]

prange = numba.prange


def jit(func):
    """Compile ``func`` in nopython mode with the on-disk cache."""
    return numba.njit(cache=True, nogil=True)(func)


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
