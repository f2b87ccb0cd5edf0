"""The serial and parallel builds of one kernel must not share a disk-cache entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from fastscore import sample
from fastscore.kernels import batch_loops, parse, score
from fastscore.kernels.waits import waits_kernel


@pytest.mark.parametrize(
    "serial, parallel",
    [
        (batch_loops.score_kernel.serial, batch_loops.score_kernel.parallel),
        (waits_kernel.serial, waits_kernel.parallel),
        (batch_loops.win_check_kernel.serial, batch_loops.win_check_kernel.parallel),
        (parse._hands_serial, parse._hands_parallel),
        (parse._context_serial, parse._context_parallel),
        (sample._sample_kernel.serial, sample._sample_kernel.parallel),
    ],
)
def test_parallel_build_has_its_own_cache_entry(serial, parallel):
    # numba names cache entries by function; a shared name made the parallel kernel load the serial build.
    assert parallel.targetoptions.get("parallel") is True
    assert not serial.targetoptions.get("parallel")
    assert parallel.py_func.__qualname__ == serial.py_func.__qualname__ + "_parallel"
    assert parallel._cache._cache_file._index_name != serial._cache._cache_file._index_name


def test_batch_kernels_run_serial_on_small_batches():
    """kernels.checks._flags and batch._held_kernel: a single hand must not wake the thread pool
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
    the cache folder is named by a digest of every source file, subpackages included."""
    import shutil

    from fastscore import _cache

    package = tmp_path / "pkg"
    shutil.copytree(_cache.PACKAGE_DIR, package, ignore=shutil.ignore_patterns("__pycache__", "*.toml"))
    (package / "sub").mkdir(exist_ok=True)
    (package / "sub" / "kernels.py").write_text("X = 1\n")
    monkeypatch.setattr(_cache, "PACKAGE_DIR", package)
    _cache.source_digest.cache_clear()
    try:
        before = _cache.source_digest()
        assert before == _cache.source_digest.__wrapped__()  # stable
        (package / "tiles.py").write_text((package / "tiles.py").read_text() + "\n# an edit\n")
        _cache.source_digest.cache_clear()
        after_top = _cache.source_digest()
        assert after_top != before
        (package / "sub" / "kernels.py").write_text("X = 2\n")
        _cache.source_digest.cache_clear()
        assert _cache.source_digest() != after_top
    finally:
        _cache.source_digest.cache_clear()


def test_kernel_cache_folder_location(tmp_path, monkeypatch):
    from fastscore._cache import kernel_cache_dir, source_digest

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("FASTSCORE_CACHE", str(tmp_path))
    assert kernel_cache_dir() == tmp_path / f"numba-{source_digest()}"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert kernel_cache_dir() == tmp_path / "mine"


def test_locator_claims_only_the_package(tmp_path, monkeypatch):
    """fastscore's cache locator answers for functions defined inside the package only; for any other
    (here one compiled through fastscore's own decorator from a test file) numba's locators decide."""
    import numba

    from fastscore import tables
    from fastscore._cache import kernel_cache_dir
    from fastscore._jit import _KernelCacheLocator, jit

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("FASTSCORE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    inside = _KernelCacheLocator.from_function(tables._annotate.py_func, tables.__file__)
    assert isinstance(inside, _KernelCacheLocator)
    assert Path(inside.get_cache_path()).is_relative_to(kernel_cache_dir())
    # a kernel of a subpackage (fastscore/kernels/) too, in its own subfolder of the cache folder
    in_sub = _KernelCacheLocator.from_function(batch_loops.score_kernel.serial.py_func, batch_loops.__file__)
    assert isinstance(in_sub, _KernelCacheLocator)
    assert Path(in_sub.get_cache_path()).is_relative_to(kernel_cache_dir())
    assert in_sub.get_cache_path() != inside.get_cache_path()
    # NUMBA_CACHE_DIR set (numba.config.CACHE_DIR): numba's own locator applies to every function.
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "numba"))
    assert _KernelCacheLocator.from_function(tables._annotate.py_func, tables.__file__) is None
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    outside_file = tmp_path / "user.py"
    outside_file.write_text("def f(x):\n    return x\n")
    assert _KernelCacheLocator.from_function(tables._annotate.py_func, str(outside_file)) is None
    assert _KernelCacheLocator.from_function(test_locator_claims_only_the_package, __file__) is None
    assert _KernelCacheLocator.from_function(tables._annotate.py_func, "<ipython-input-1>") is None

    def twice(x):
        return 2 * x

    kernel = jit(twice)
    assert kernel(3) == 6
    assert type(kernel._cache._impl.locator) is not _KernelCacheLocator  # numba's in-tree __pycache__ locator


_USER_KERNEL = """
import numba

@numba.njit(cache=True)
def plus_one(x):
    return x + 1
"""

_CHILD = """
import os, sys, json
sys.path.insert(0, sys.argv[1])
import numba
before = numba.config.CACHE_DIR
import fastscore
from fastscore import tables
from fastscore._cache import kernel_cache_dir
import numpy as np
tables._annotate(np.int64(5))   # a fastscore kernel: compiled, or loaded from the cache
import userkernel
userkernel.plus_one(1)          # the caller's own cache=True kernel
print(json.dumps({
    "config_before": before,
    "config_after": numba.config.CACHE_DIR,
    "kernel_cache_dir": str(kernel_cache_dir()),
    "fastscore_path": tables._annotate._cache.cache_path,
    "fastscore_hits": sum(tables._annotate.stats.cache_hits.values()),
    "user_path": userkernel.plus_one._cache.cache_path,
}))
"""


def _child(tmp_path, numba_cache_dir=None):
    import json
    import os
    import subprocess
    import sys

    user = tmp_path / "user"
    user.mkdir(exist_ok=True)
    (user / "userkernel.py").write_text(_USER_KERNEL)
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES")}
    env["FASTSCORE_CACHE"] = str(tmp_path / "fastscore-cache")
    if numba_cache_dir:
        env["NUMBA_CACHE_DIR"] = str(numba_cache_dir)
    out = subprocess.run([sys.executable, "-c", _CHILD, str(user)], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.splitlines()[-1]), user


def test_import_leaves_the_callers_kernels_alone(tmp_path):
    """After ``import fastscore`` the caller's own ``cache=True`` kernel caches where numba puts it without
    fastscore (next to its file), numba's config is unchanged, and fastscore's kernels cache in the
    fastscore cache folder and load from there in a second process."""
    from pathlib import Path

    first, user = _child(tmp_path)
    assert first["config_before"] == first["config_after"] == ""
    kernel_dir = Path(first["kernel_cache_dir"])
    assert kernel_dir.parent == tmp_path / "fastscore-cache"
    assert Path(first["fastscore_path"]).parent == kernel_dir
    assert list(kernel_dir.rglob("tables._annotate-*.nbi"))
    assert Path(first["user_path"]) == user / "__pycache__"
    assert list((user / "__pycache__").glob("userkernel.plus_one-*.nbi"))
    assert not list(kernel_dir.rglob("userkernel*"))
    second, _ = _child(tmp_path)
    assert second["fastscore_hits"] == 1  # loaded, not compiled


def test_import_makes_no_kernel_cache_until_a_kernel_is_used():
    """Importing fastscore makes no dispatcher's disk cache (each costs a folder check, about a millisecond);
    the first call of a kernel makes its own, where test_import_leaves_the_callers_kernels_alone finds it."""
    import os
    import subprocess
    import sys

    code = (
        "import fastscore, gc\n"
        "from fastscore._jit import _LazyKernelCache\n"
        "caches = [o for o in gc.get_objects() if type(o) is _LazyKernelCache]\n"
        "print(len(caches), sum(c._cache is not None for c in caches))\n"
        "from fastscore.kernels.checks import first_flagged\n"
        "import numpy as np\n"
        "first_flagged(np.zeros(3, dtype=np.uint8))\n"
        "print(first_flagged._cache._cache is not None)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}  # with it, numba's stamps: eager caches
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    made, used, first = done.stdout.split()[:3]
    assert int(made) > 300 and int(used) == 0 and first == "True", done.stdout


def test_numba_cache_dir_applies_to_everyone(tmp_path):
    """With ``NUMBA_CACHE_DIR`` set, numba's own locator puts every kernel there, fastscore's included."""
    from pathlib import Path

    mine = tmp_path / "numba-cache"
    run, user = _child(tmp_path, numba_cache_dir=mine)
    assert run["config_before"] == run["config_after"] == str(mine)
    assert run["kernel_cache_dir"] == str(mine)
    assert Path(run["fastscore_path"]).parent == mine and Path(run["user_path"]).parent == mine
    assert not (user / "__pycache__").exists() or not list((user / "__pycache__").glob("*.nbi"))
    assert not (tmp_path / "fastscore-cache").exists() or not list((tmp_path / "fastscore-cache").rglob("*.nbi"))


def test_first_run_message_only_without_compiled_kernels(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import fastscore
    from fastscore.cli import app

    from fastscore import _cache

    monkeypatch.setattr(_cache, "_announced", False)  # as in a new process
    fastscore.score("11m99m77p11s9s EE RR 333p", win="9s")  # the kernels are compiled (or loaded) here
    monkeypatch.setattr(_cache, "_announced", False)  # (said above if this test compiled them)
    args = ["score", "11m99m77p11s9s EE RR 333p", "--win", "9s"]
    warm = CliRunner().invoke(app, args)
    assert warm.exit_code == 0 and "first run" not in warm.stderr
    monkeypatch.setenv("FASTSCORE_CACHE", str(tmp_path))  # an empty cache folder
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    cold = CliRunner().invoke(app, args)
    assert cold.exit_code == 0 and "first run: compiling the kernels once" in cold.stderr


def test_first_run_notice_once_and_only_without_compiled_kernels(tmp_path, monkeypatch):
    from fastscore import _cache

    monkeypatch.setattr(_cache, "_announced", False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    assert _cache.first_run_notice() is None  # this checkout's kernels are in the cache (the suite ran them)
    monkeypatch.setenv("FASTSCORE_CACHE", str(tmp_path))  # an empty cache folder: the next use compiles
    assert _cache.first_run_notice() == _cache.FIRST_RUN
    assert _cache.first_run_notice() is None  # said once a process


def test_warmup_loads_every_kernel_and_the_command_says_so():
    from click.testing import CliRunner

    import fastscore
    from fastscore.cli import app

    assert fastscore.warmup() > 0
    result = CliRunner().invoke(app, ["warmup"])
    assert result.exit_code == 0 and result.stdout.startswith("kernels ready in ")


def test_row_loops_compile_without_reference_counting():
    """Every batch kernel's per-block row loop is a ``jit_block`` (numba's ``_nrt=False``): reference
    counting left in those loops cost 60 ns a row and more (``fastscore._jit.jit_block``)."""
    from fastscore.kernels import discards, shanten, survey, waits

    blocks = [batch_loops._score_block, batch_loops._win_check_block, waits._waits_block, shanten._shanten_block,
              discards._discard_block, survey._survey_stripe]
    assert [b.targetoptions.get("_nrt") for b in blocks] == [False] * len(blocks)


def test_single_hand_kernels_share_one_called_build_of_the_scoring_path():
    """``_jit.twin``: the single-hand kernels run a second build of the scoring path, compiled once
    and called (the batch loops inline theirs); each build has its own cache entry and reads the
    names it was given."""
    from fastscore.kernels import features, rows, waits

    pairs = [(score.collect_interpretations, score.collect_interpretations_called),
             (score.interpret_loaded, score._interpret_called), (score._interpretation, score._interpretation_called),
             (score.score_interpretation, score._score_interpretation_called),
             (features.load_hand, features.load_hand_called), (waits._waits_block, waits._waits_block_called)]
    for inlined, called in pairs:
        assert called.py_func.__code__ is inlined.py_func.__code__
        assert called.py_func.__qualname__ == inlined.py_func.__qualname__ + "_called"
        assert called.targetoptions.get("_nrt") is False and called.targetoptions.get("inline", "never") == "never"
        assert called._cache._cache_file._index_name != inlined._cache._cache_file._index_name
    assert score.interpret_loaded.targetoptions.get("inline") == "always"
    names = score._interpret_called.py_func.__globals__
    assert names["collect_interpretations"] is score.collect_interpretations_called
    # The hand rows' evaluator and section 6 are called too (one compile each, not typed again where inlined).
    assert names["evaluate_hand"] is rows.evaluate_hand_called and rows.evaluate_hand.targetoptions["inline"] == "always"
    assert names["score_interpretation"] is score._score_interpretation_called
    assert score._interpretation_called.py_func.__globals__["evaluate_self_drawn"] is rows.evaluate_self_drawn_called
    for evaluator in (rows.evaluate_hand_called, rows.evaluate_self_drawn_called):
        assert evaluator.targetoptions.get("inline", "never") == "never"
    assert score.interpret_loaded.py_func.__globals__["collect_interpretations"] is score.collect_interpretations
    assert score.collect_interpretations_called.py_func.__globals__["_interpretation"] is score._interpretation_shared
    block = waits._waits_block_called.py_func.__globals__
    assert block["interpret_loaded"] is score.interpret_called and block["load_hand"] is features.load_hand_called


def test_twin_replaces_only_the_names_given():
    from fastscore._jit import twin

    namespace = {"add_one": lambda x: x + 1, "scale": 10}
    exec("def apply(x):\n    return add_one(x) * scale", namespace)
    apply = namespace["apply"]
    other = twin(apply, "other", add_one=lambda x: x + 2)
    assert other.__name__ == "apply_other" and other.__qualname__ == "apply_other"
    assert apply(1) == 20 and other(1) == 30  # (1 + 1) * 10 and (1 + 2) * 10
    assert namespace["add_one"](1) == 2 and other.__globals__["scale"] == 10
