"""The serial and parallel builds of one kernel must not share a disk-cache entry."""

from __future__ import annotations

import pytest

from fastscore import fastparse, kernel
from fastscore.waits import waits_kernel


@pytest.mark.parametrize(
    "serial, parallel",
    [
        (kernel.score_kernel.serial, kernel.score_kernel.parallel),
        (waits_kernel.serial, waits_kernel.parallel),
        (kernel.win_check_kernel.serial, kernel.win_check_kernel.parallel),
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


# --------------------------------------------------------------------------- the kernel cache folder


def test_kernel_cache_folder_follows_the_sources(tmp_path, monkeypatch):
    """A kernel compiled against an older version of a function it inlines must never load:
    the cache folder is named by a digest of every source file."""
    import shutil

    from fastscore import _cache

    package = tmp_path / "pkg"
    shutil.copytree(_cache._PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__", "*.toml"))
    monkeypatch.setattr(_cache, "_PACKAGE", package)
    _cache.source_digest.cache_clear()
    try:
        before = _cache.source_digest()
        assert before == _cache.source_digest.__wrapped__()  # stable
        (package / "evaluate.py").write_text((package / "evaluate.py").read_text() + "\n# an edit\n")
        _cache.source_digest.cache_clear()
        assert _cache.source_digest() != before
    finally:
        _cache.source_digest.cache_clear()


def test_kernel_cache_folder_location(tmp_path, monkeypatch):
    from fastscore._cache import kernel_cache_dir, source_digest

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("FASTSCORE_CACHE", str(tmp_path))
    assert kernel_cache_dir() == tmp_path / f"numba-{source_digest()}"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert kernel_cache_dir() == tmp_path / "mine"


def test_numba_uses_the_kernel_cache_folder(tmp_path):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["FASTSCORE_CACHE"] = str(tmp_path)
    code = ("import numba, fastscore; from fastscore._cache import kernel_cache_dir; "
            "print(numba.config.CACHE_DIR == str(kernel_cache_dir()), kernel_cache_dir().parent)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", str(tmp_path)]


def test_first_run_message_only_without_compiled_kernels(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import fastscore
    from fastscore.cli import app

    fastscore.score("11m99m77p11s9s EE RR 333p", win="9s")  # the kernels are compiled (or loaded) here
    args = ["score", "11m99m77p11s9s EE RR 333p", "--win", "9s"]
    warm = CliRunner().invoke(app, args)
    assert warm.exit_code == 0 and "first run" not in warm.stderr
    monkeypatch.setenv("FASTSCORE_CACHE", str(tmp_path))  # an empty cache folder
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    cold = CliRunner().invoke(app, args)
    assert cold.exit_code == 0 and "first run: compiling the kernels once" in cold.stderr
