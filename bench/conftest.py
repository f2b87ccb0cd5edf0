"""Benchmark session set-up: the ``peers`` marker and ``--peers`` option, and the summary table.

Run: ``python3 -m pytest bench/ --benchmark-only -p no:cacheprovider``.

``--peers=auto`` (default) runs the peer benchmarks (``test_bench_peers.py``,
the ``mahjong`` package) when ``mahjong`` imports and deselects them, saying so
in the header, when it does not; ``--peers=on`` makes a missing package a usage
error; ``--peers=off`` deselects them.  Nothing is ever skipped.

At the end of the session, :func:`pytest_terminal_summary` prints one line per
benchmark: throughput in hands per second and its ratio to the reference, to
the peer figures (measured in this run and quoted in PERF.md) and to the
issue targets.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402

TASK_ORDER = ("score", "win_check", "waits", "waits_not_ready")
IMPL_ORDER = ("jit_parallel", "jit", "bruteforce", "reference")
PEERS_ON = pytest.StashKey[bool]()


def pytest_addoption(parser):
    parser.addoption(
        "--peers",
        choices=("auto", "on", "off"),
        default="auto",
        help="peer benchmarks (the mahjong package): auto = run when mahjong imports (default), "
        "on = require it, off = deselect them",
    )


def _mahjong_available() -> bool:
    try:
        import mahjong  # noqa: F401
    except ImportError:
        return False
    return True


def pytest_configure(config):
    config.addinivalue_line("markers", "peers: peer benchmarks that need the mahjong package (see --peers)")
    choice = config.getoption("--peers")
    if choice == "on" and not _mahjong_available():
        raise pytest.UsageError(
            "--peers=on but the mahjong package is not installed: pip install -e '.[bench]' (mahjong==2.1.0)"
        )
    config.stash[PEERS_ON] = choice == "on" or (choice == "auto" and _mahjong_available())


def pytest_report_header(config):
    lines = [f"fastscore bench: numba threads {benchlib.DEFAULT_THREADS}, cpus {os.cpu_count()}"]
    if config.stash[PEERS_ON]:
        from importlib.metadata import version

        lines.append(f"peer benchmarks: on (mahjong {version('mahjong')})")
    else:
        reason = "--peers=off" if config.getoption("--peers") == "off" else "mahjong not installed"
        lines.append(f"peer benchmarks: DESELECTED ({reason}; pip install -e '.[bench]' to run them)")
    return lines


def pytest_collection_modifyitems(config, items):
    if config.stash[PEERS_ON]:
        return
    dropped = [item for item in items if item.get_closest_marker("peers")]
    if dropped:
        items[:] = [item for item in items if not item.get_closest_marker("peers")]
        config.hook.pytest_deselected(items=dropped)


# --------------------------------------------------------------------------- summary table


def _rate(x: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.3g}{unit}"
    return f"{x:.3g}"


def _ratio(x: float | None, of: float | None) -> str:
    if x is None or not of:
        return "-"
    r = x / of
    return f"{r:.3g}x" if r < 1000 else f"{r:,.0f}x"


def _reference_rate(results, task, family, n):
    """Reference throughput for ``task``: same family and N if measured, else its largest N, else ``mixed``."""
    ref_task = benchlib.REFERENCE_TASK.get(task)
    refs = [r for r in results if r["impl"] == "reference" and r["task"] == ref_task]
    for fam in (family, "mixed"):
        same = [r for r in refs if r["family"] == fam]
        exact = [r for r in same if r["n"] == n]
        if exact:
            return exact[0]["hands_per_s"]
        if same:
            return max(same, key=lambda r: r["n"])["hands_per_s"]
    return None


def _sort_key(r):
    task = TASK_ORDER.index(r["task"]) if r["task"] in TASK_ORDER else len(TASK_ORDER)
    impl = IMPL_ORDER.index(r["impl"]) if r["impl"] in IMPL_ORDER else len(IMPL_ORDER)
    return task, r["family"] != "mixed", r["family"], impl, r["n"]


def _pooled(records):
    """One record per (task, impl, family, N): benchmarks measured twice (the ``mixed`` family at 1e5 in the
    size sweep and the family split) are pooled, total hands over total time."""
    groups: dict = {}
    for r in records:
        groups.setdefault((r["task"], r["impl"], r["family"], r["n"]), []).append(r)
    pooled = []
    for same in groups.values():
        r = dict(same[0])
        r["hands_per_s"] = sum(x["n"] * x["rounds"] for x in same) / sum(x["mean_s"] * x["rounds"] for x in same)
        r["hands_per_s_median"] = float(np.median([x["hands_per_s_median"] for x in same]))
        r["runs"] = len(same)
        pooled.append(r)
    return pooled


@pytest.hookimpl(trylast=True)  # after pytest-benchmark's own tables
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    results = _pooled(benchlib.RESULTS)
    if not results:
        return
    mahjong_run = {r["task"]: r["hands_per_s"] for r in results if r["impl"].startswith("mahjong")}
    header = ("task", "impl", "family", "N", "hands/s", "median", "x ref", "x mj run", "x mj PERF", "x PERF best", "x target")
    rows = []
    for r in sorted(results, key=_sort_key):
        task, rate = r["task"], r["hands_per_s"]
        is_ref = r["impl"] == "reference"
        best = benchlib.PERF_BEST_PEER.get(task)
        rows.append((
            task,
            r["impl"] + (f" ({r['threads']}t)" if r.get("threads") else ""),
            r["family"],
            benchlib.size_id(r["n"]).removeprefix("N=") + ("*" if r["runs"] > 1 else ""),
            _rate(rate),
            _rate(r["hands_per_s_median"]),
            "-" if is_ref else _ratio(rate, _reference_rate(results, task, r["family"], r["n"])),
            "-" if r["impl"].startswith("mahjong") else _ratio(rate, mahjong_run.get(task)),
            _ratio(rate, benchlib.PERF_MAHJONG.get(task)),
            _ratio(rate, best[1] if best else None),
            _ratio(rate, benchlib.TARGETS.get(task)),
        ))
    widths = [max(len(str(row[k])) for row in [header, *rows]) for k in range(len(header))]
    tr = terminalreporter
    tr.write_sep("=", "fastscore throughput (hands per second: N / mean round time; median: N / median)")
    for row in [header, *rows]:
        tr.write_line("  ".join(str(cell).ljust(w) if k < 3 else str(cell).rjust(w)
                                for k, (cell, w) in enumerate(zip(row, widths))))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    peers = "; ".join(f"{task} {name} {_rate(rate)}/s" for task, (name, rate) in benchlib.PERF_BEST_PEER.items())
    targets = "; ".join(f"{task} {_rate(rate)}/s" for task, rate in benchlib.TARGETS.items())
    mj = ", ".join(sorted(mahjong_run)) or "not run"
    for line in (
        "N*: measured by two benchmarks (size sweep and family split), pooled.",
        "x ref: vs tests/reference.py, same family and N if run, else its largest N (not-ready: vs ready waits).",
        f"x mj run: vs the mahjong package measured above ({mj}; riichi, complete 14-tile hands).",
        "x mj PERF: vs mahjong 2.1.0 as measured in PERF.md (score 16k/s, win check 195k/s).",
        f"x PERF best: {peers}.",
        f"x target: {targets}.",
        f"numba default threads {benchlib.DEFAULT_THREADS}, cpus {os.cpu_count()}, load average {load} "
        "(figures are noisy when other processes share the machine).",
    ):
        tr.write_line(line)
