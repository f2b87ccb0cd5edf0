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
