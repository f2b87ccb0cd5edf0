"""Benchmark session set-up: the ``peers`` marker and ``--peers`` option, and the summary table.

Run: ``python3 -m pytest bench/ --benchmark-only -p no:cacheprovider``.

``--peers=auto`` (default) runs each peer benchmark (marked ``peers(package)``:
the ``mahjong`` package, RiichiEnv, ``xiangting``) when its package imports and
deselects it, saying so in the header, when it does not; ``--peers=on`` makes a
missing package a usage error; ``--peers=off`` deselects them all.  Nothing is
ever skipped.

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
PEERS_ON = pytest.StashKey[frozenset]()
#: The peers' packages: a benchmark marked ``peers(package)`` (default ``mahjong``) needs that package.
PEER_PACKAGES = ("mahjong", "riichienv", "xiangting")


def pytest_addoption(parser):
    parser.addoption(
        "--peers",
        choices=("auto", "on", "off"),
        default="auto",
        help="peer benchmarks (mahjong, riichienv, xiangting): auto = run those whose package imports "
        "(default), on = require them all, off = deselect them",
    )


def _installed(package: str) -> bool:
    try:
        __import__(package)
    except ImportError:
        return False
    return True


def _package(item) -> str:
    marker = item.get_closest_marker("peers")
    return marker.args[0] if marker.args else "mahjong"


def pytest_configure(config):
    config.addinivalue_line("markers", "peers(package): peer benchmarks that need a peer's package (see --peers; "
                                       "default package mahjong)")
    choice = config.getoption("--peers")
    installed = frozenset(p for p in PEER_PACKAGES if choice != "off" and _installed(p))
    missing = [p for p in PEER_PACKAGES if p not in installed]
    if choice == "on" and missing:
        raise pytest.UsageError(f"--peers=on but {', '.join(missing)} not installed: pip install -e '.[bench]'")
    config.stash[PEERS_ON] = installed


def pytest_report_header(config):
    from importlib.metadata import version

    lines = [f"fastscore bench: numba threads {benchlib.DEFAULT_THREADS}, cpus {os.cpu_count()}"]
    on = config.stash[PEERS_ON]
    if on:
        lines.append("peer benchmarks: on (" + ", ".join(f"{p} {version(p)}" for p in sorted(on)) + ")")
    off = [p for p in PEER_PACKAGES if p not in on]
    if off:
        reason = "--peers=off" if config.getoption("--peers") == "off" else "not installed"
        lines.append(f"peer benchmarks DESELECTED for {', '.join(off)} ({reason}; pip install -e '.[bench]' "
                     "to run them)")
    return lines


def pytest_collection_modifyitems(config, items):
    on = config.stash[PEERS_ON]
    dropped = [item for item in items if item.get_closest_marker("peers") and _package(item) not in on]
    if dropped:
        items[:] = [item for item in items if item not in dropped]
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
    peer_run: dict = {}  # the fastest peer measured in this run, per task
    for r in results:
        if r["impl"].startswith(benchlib.PEER_IMPLS) and r["hands_per_s"] > peer_run.get(r["task"], ("", 0))[1]:
            peer_run[r["task"]] = (r["impl"], r["hands_per_s"])
    header = ("task", "impl", "family", "N", "hands/s", "median", "x ref", "x peer run", "x mj PERF", "x PERF best", "x target")
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
            "-" if r["impl"].startswith(benchlib.PEER_IMPLS) else _ratio(rate, peer_run.get(task, ("", None))[1]),
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
    run_peers = "; ".join(f"{task} {name}" for task, (name, _) in sorted(peer_run.items())) or "not run"
    for line in (
        "N*: measured by two benchmarks (size sweep and family split), pooled.",
        "x ref: vs tests/reference.py, same family and N if run, else its largest N (not-ready: vs ready waits).",
        f"x peer run: vs the fastest peer measured above, one call a hand from Python ({run_peers}; riichi, "
        "14-tile hands).",
        "x mj PERF: vs mahjong 2.1.0 as measured in PERF.md (score 16k/s, win check 195k/s).",
        f"x PERF best: {peers}.",
        f"x target: {targets}.",
        f"numba default threads {benchlib.DEFAULT_THREADS}, cpus {os.cpu_count()}, load average {load} "
        "(figures are noisy when other processes share the machine).",
    ):
        tr.write_line(line)
