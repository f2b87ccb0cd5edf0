"""The serial and parallel builds of one kernel must not share a disk-cache entry."""

from __future__ import annotations

import pytest

from fastscore import fastparse, kernel
from fastscore.waits import waits_kernel, waits_kernel_serial


@pytest.mark.parametrize(
    "serial, parallel",
    [
        (kernel.score_kernel_serial, kernel.score_kernel),
        (waits_kernel_serial, waits_kernel),
        (fastparse._hands_serial, fastparse._hands_parallel),
        (fastparse._context_serial, fastparse._context_parallel),
    ],
)
def test_parallel_build_has_its_own_cache_entry(serial, parallel):
    # numba names cache entries by function; a shared name made the parallel kernel load the serial build.
    assert parallel.targetoptions.get("parallel") is True
    assert not serial.targetoptions.get("parallel")
    assert parallel.py_func.__qualname__ == serial.py_func.__qualname__ + "_parallel"
    assert parallel._cache._cache_file._index_name != serial._cache._cache_file._index_name


def test_batch_kernels_run_serial_on_small_batches():
    """checks._row_errors and batch._held_kernel: a single hand must not wake the thread pool
    (about a millisecond per call), a big batch must use it."""
    import numpy as np

    from fastscore._jit import SERIAL_MAX_ROWS, BatchKernel, prange

    def double(rows, out):
        for i in prange(rows.shape[0]):
            out[i] = 2 * rows[i]

    twice = BatchKernel(double)
    for n in (1, SERIAL_MAX_ROWS, SERIAL_MAX_ROWS + 1):
        rows = np.arange(n, dtype=np.int64)
        out = np.empty(n, dtype=np.int64)
        twice(rows, out)
        np.testing.assert_array_equal(out, 2 * rows)
        # compiled lazily: the parallel build exists only once a big batch has been seen
        assert bool(twice.parallel.signatures) == (n > SERIAL_MAX_ROWS)
    assert twice.serial.signatures and not twice.serial.targetoptions.get("parallel")
    assert twice.parallel.targetoptions.get("parallel") is True
