"""Shared helpers of the benchmark suites: seeded data, notation, the timing wrapper, the figures to beat.

Every benchmark goes through :func:`run`, which times the call (calibrated
rounds for small batches, ``benchmark.pedantic`` with a few rounds for big
ones), records ``task``, ``impl``, ``family``, ``n``, ``threads`` and
``hands_per_s`` in ``benchmark.extra_info``, and appends the same record to
:data:`RESULTS` for the summary table that ``bench/conftest.py`` prints.

Implementations (``impl``):

``jit_parallel``  the public batch function, numba's default thread count
``jit``           the same kernel with ``numba.set_num_threads(1)``
``reference``     ``tests/reference.py``, one Python call per hand
``bruteforce``    34 ``score_batch`` calls, one per candidate winning tile
``mahjong``       the ``mahjong`` PyPI package (riichi rules, 14 tiles)

The comparison figures are those of /work/shared/PERF.md and the issue targets.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from contextlib import contextmanager
from pathlib import Path

import numba
import numpy as np

from fastscore import HandBatch, sample_ready, sample_winning, score_batch, waits_batch
from fastscore.tiles import TILE_NAMES, WINDS, format_counts, format_set

ROOT = Path(__file__).resolve().parents[1]
#: numba's default thread count (``NUMBA_NUM_THREADS``), used by ``jit_parallel``.
DEFAULT_THREADS = numba.config.NUMBA_NUM_THREADS
#: Threads per implementation; ``None``: not a numba kernel, leave the setting alone.
IMPL_THREADS = {"jit_parallel": DEFAULT_THREADS, "jit": 1, "bruteforce": DEFAULT_THREADS}
SEED = 20240601

#: Records of the benchmarks run in this session (one dict per benchmark).
RESULTS: list[dict] = []

# Figures to compare with, hands per second (PERF.md "Peers" and the issue targets).
#: mahjong 2.1.0 as measured in PERF.md: full scoring, win check of complete 14-tile hands.
PERF_MAHJONG = {"score": 16e3, "win_check": 195e3}
#: The fastest peer figure in PERF.md for each task, with its name.
PERF_BEST_PEER = {
    "score": ("RiichiEnv via Python", 150e3),
    "win_check": ("mahjong 2.1.0", 195e3),
    "waits": ("xiangting", 785e3),
    "waits_not_ready": ("xiangting", 785e3),
}
#: The ``impl`` names of the peers' benchmarks start with one of these.
PEER_IMPLS = ("mahjong", "RiichiEnv", "xiangting")
#: Issue targets on 2 cores (score, win check and waits: issue #19's, which raised the first
#: version's 60 M and 3 M hands/s for the win check and the waits).
TARGETS = {"score": 15e6, "win_check": 80e6, "waits": 8e6, "waits_not_ready": 30e6, "shanten": 20e6, "discards": 1e6}
#: Which reference benchmark a task is compared with (not-ready waits: the reference waits of ready hands).
REFERENCE_TASK = {"score": "score", "waits": "waits", "waits_not_ready": "waits", "shanten": "shanten"}


@functools.cache
def reference():
    """``tests/reference.py``, loaded by path (tests/ is not a package and not on sys.path here)."""
    spec = importlib.util.spec_from_file_location("fastscore_bench_reference", ROOT / "tests" / "reference.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


@functools.cache
def reference_shanten():
    """``tests/reference_shanten.py`` (the brute-force shanten), loaded by path; it imports
    ``tests/reference.py`` as ``reference``, which :func:`reference` provides."""
    sys.modules.setdefault("reference", reference())
    spec = importlib.util.spec_from_file_location("fastscore_bench_reference_shanten",
                                                  ROOT / "tests" / "reference_shanten.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextmanager
def threads(n: int | None):
    """Run the block with ``numba.set_num_threads(n)``, restoring the previous setting after."""
    if n is None:
        yield
        return
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(old)


@functools.cache
def warm() -> None:
    """Compile (or load from numba's cache) the public kernels once, outside any timing."""
    score_batch(sample_winning(64, SEED))
    waits_batch(sample_ready(64, SEED))


def run(benchmark, fn, *, task: str, impl: str, family: str, n: int, rounds: int | None = None,
        group: str | None = None):
    """Time ``fn()`` (which handles ``n`` hands) and record the throughput; returns ``fn()``'s result.

    ``rounds=None`` lets pytest-benchmark calibrate (for batches that take
    milliseconds); otherwise ``benchmark.pedantic`` runs one untimed warm-up
    round and then exactly ``rounds`` rounds of one call each.  The thread
    count of ``impl`` (:data:`IMPL_THREADS`) is set for the timing only.

    Steady state, as in a job that scores chunk after chunk: each round's
    result is dropped before the next round starts, so a round's output
    arrays reuse the memory of the previous round's instead of fresh pages
    from the operating system.  (The first call on fresh memory pays the page
    faults of its outputs, up to 306 MB per million ready hands for waits: it
    ran at about half the steady rate.)  The result returned comes from one
    more call after the timing.
    """
    n_threads = IMPL_THREADS.get(impl)
    benchmark.group = group or task
    benchmark.extra_info.update(task=task, impl=impl, family=family, n=n, threads=n_threads)

    def timed():
        fn()  # the result is dropped here, before the next round allocates its own

    with threads(n_threads):
        if rounds is None:
            benchmark(timed)
        else:
            benchmark.pedantic(timed, rounds=rounds, iterations=1, warmup_rounds=1)
        result = fn()
    stats = benchmark.stats.stats
    benchmark.extra_info["hands_per_s"] = n / stats.mean
    benchmark.extra_info["hands_per_s_median"] = n / stats.median
    RESULTS.append(dict(benchmark.extra_info, mean_s=stats.mean, rounds=stats.rounds))
    return result


# --------------------------------------------------------------------------- data (built once per session)


@functools.cache
def winning(n: int, family: str = "mixed", seed: int = SEED) -> HandBatch:
    """``sample_winning(n, seed, families=family)``, cached for the session."""
    return sample_winning(n, seed, families=family)


@functools.cache
def ready(n: int, family: str = "mixed", seed: int = SEED) -> HandBatch:
    """``sample_ready(n, seed, families=family)``, cached for the session."""
    return sample_ready(n, seed, families=family)


@functools.cache
def not_ready(n: int, seed: int = SEED) -> HandBatch:
    """``n`` 16-tile hands with no wait: ready hands with one concealed tile swapped for another kind.

    A swapped hand that is still ready is swapped again (about a fifth are,
    on the first pass), until every row has ``n_waits == 0`` under
    :func:`fastscore.waits_batch`; every row passes validation.
    """
    batch = sample_ready(n, seed).take(slice(None))  # a copy to change
    held = _held(batch)
    n_tiles = batch.concealed.sum(axis=1)
    rng = np.random.default_rng(seed)
    todo = np.arange(n)
    for _ in range(50):
        if todo.size == 0:
            break
        rows = np.arange(todo.size)
        concealed = batch.concealed[todo]
        # Take off a uniformly chosen concealed tile...
        cum = concealed.cumsum(axis=1, dtype=np.int16)
        pick = rng.integers(0, cum[:, -1], dtype=np.int16)
        out = (cum <= pick[:, None]).sum(axis=1)
        # ...and put on another kind with a copy left.
        into = rng.integers(0, 34, size=todo.size)
        for _ in range(1000):
            bad = (into == out) | (held[todo, into] >= 4)
            if not bad.any():
                break
            into[bad] = rng.integers(0, 34, size=int(bad.sum()))
        concealed[rows, out] -= 1
        concealed[rows, into] += 1
        batch.concealed[todo] = concealed
        held[todo, out] -= 1
        held[todo, into] += 1
        todo = todo[waits_batch(batch if todo.size == n else batch.take(todo)).n_waits > 0]
    if todo.size:
        raise RuntimeError(f"{todo.size} hands still ready after 50 swaps")
    if not ((held == _held(batch)).all() and held.max() <= 4 and (batch.concealed.sum(axis=1) == n_tiles).all()):
        raise RuntimeError("not_ready built an invalid hand")
    # Built from arrays as a research script would: plain columns, checked row by row inside the kernels.
    return HandBatch.from_arrays(batch.concealed, batch.declared, None, self_drawn=batch.self_drawn, seat=batch.seat,
                                 round=batch.round, flowers=batch.flowers, streak=batch.streak, closing=batch.closing)


def _held(batch: HandBatch) -> np.ndarray:
    """``(N, 34) int64`` tiles held, declared sets included (``held_counts`` less its slow ``np.add.at``)."""
    held = batch.concealed.astype(np.int64)
    _add_declared(held, batch.declared)
    return held


@numba.njit(nogil=True)  # no cache=True: set-up code, compiled in well under a second
def _add_declared(held, declared):
    for i in range(held.shape[0]):
        for k in range(declared.shape[1]):
            kind = declared[i, k, 0]
            tile = declared[i, k, 1]
            if kind == 1:
                held[i, tile] += 1
                held[i, tile + 1] += 1
                held[i, tile + 2] += 1
            elif kind == 2:
                held[i, tile] += 3
            elif kind >= 3:
                held[i, tile] += 4


def with_win(batch: HandBatch, tile: int) -> HandBatch:
    """The hands of a 16-tile batch with every winning tile set to ``tile`` (won on a discard),
    built with :meth:`HandBatch.from_arrays` (plain columns over the arrays), as a user would build it.

    Rows already holding four ``tile`` are flagged (fifth copy) and skipped by
    :func:`fastscore.score_batch`, as the waits analysis excludes them.
    """
    return HandBatch.from_arrays(batch.concealed, batch.declared, np.full(len(batch), tile), seat=batch.seat,
                                 round=batch.round, flowers=batch.flowers, streak=batch.streak, closing=batch.closing)


def notation(batch: HandBatch) -> list[tuple[str, str | None, dict]]:
    """Rows as ``(hand, win, context)`` for ``reference.score(hand, win, **ctx)``.

    ``win`` is None for rows without a winning tile; ``context`` then omits
    ``self_drawn`` (as ``reference.waits`` takes it).
    """
    rows = []
    for i in range(len(batch)):
        sets = [format_set(int(kind), int(tile)) for kind, tile in batch.declared[i] if kind]
        hand = " ".join([format_counts(batch.concealed[i]), *sets])
        ctx = dict(
            seat=WINDS[batch.seat[i]],
            round=WINDS[batch.round[i]],
            flowers="".join(f"{k + 1}f" for k in range(8) if batch.flowers[i] >> k & 1),
            streak=int(batch.streak[i]),
            closing=bool(batch.closing[i]),
        )
        win = None
        if batch.win[i] >= 0:
            win = TILE_NAMES[batch.win[i]]
            ctx["self_drawn"] = bool(batch.self_drawn[i])
        rows.append((hand, win, ctx))
    return rows


def size_id(n: int) -> str:
    """Parametrize id for a batch size: ``N=1``, ``N=1e3``, ``N=1e6``."""
    if n < 1000:
        return f"N={n}"
    exponent = len(str(n)) - 1
    mantissa = n // 10**exponent
    return f"N={mantissa}e{exponent}" if mantissa != 1 else f"N=1e{exponent}"


__all__ = [
    "DEFAULT_THREADS",
    "PERF_BEST_PEER",
    "PERF_MAHJONG",
    "REFERENCE_TASK",
    "RESULTS",
    "SEED",
    "TARGETS",
    "not_ready",
    "notation",
    "ready",
    "reference",
    "run",
    "size_id",
    "threads",
    "warm",
    "winning",
    "with_win",
]
