"""Start-up: ``fastscore score HAND -w TILE`` for one hand, a fresh process each round.

The issue's target: with the numba cache warm, one hand through the command
line returns in under 1 s wall time.  Each round runs the installed console
script (the ``fastscore`` beside this Python, else ``python -m fastscore.cli``)
as a new process, so the time holds the interpreter's start, the imports,
loading the cached kernels and the tables, and the scoring.  The summary table
reports it as hands per second (one hand per round): ``x target`` at 1 or more
means under 1 s.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchlib import TARGETS, run

TARGETS.setdefault("startup", 1.0)  # one hand in 1 s
ROUNDS = 5
HAND, WIN = "11m99m77p11s9s EE RR 333p", "9s"


def _command() -> list[str]:
    script = Path(sys.executable).with_name("fastscore")
    prefix = [str(script)] if script.is_file() else [sys.executable, "-m", "fastscore.cli"]
    return prefix + ["score", HAND, "-w", WIN]


def test_startup_one_hand(benchmark):
    command = _command()

    def once():
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        # Nico Nico: no_flowers 1 + all_five_suits 10 + nico_nico 40 = 51 points; total 51 + mahjong_base 5 = 56;
        # seat E (the dealer): payout 56 + east_wins 5 = 61.
        assert "payout   61" in done.stdout, done.stdout

    once()  # fills the kernel cache if this checkout's is empty (the first run compiles)
    run(benchmark, once, task="startup", impl="cli", family="one hand", n=1, rounds=ROUNDS, group="startup")
    benchmark.extra_info["seconds"] = benchmark.stats.stats.mean
