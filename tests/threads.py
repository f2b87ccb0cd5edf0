"""Run a script in fresh processes under several numba thread counts (determinism tests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def outputs_by_thread_count(script: str, runs) -> set[str]:
    """The distinct stdouts of ``python -c script ARG`` for each ``(NUMBA_NUM_THREADS, ARG)`` of ``runs``."""
    outputs = set()
    for threads, arg in runs:
        env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
        done = subprocess.run([sys.executable, "-c", script, str(arg)], env=env, cwd=ROOT, capture_output=True,
                              text=True, check=True)
        outputs.add(done.stdout.strip())
    return outputs
