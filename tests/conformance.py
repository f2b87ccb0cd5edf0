"""The shared conformance cases (../shared/conformance), read for the tests.

They are found in the folder named by ``FASTSCORE_CONFORMANCE`` (an error when
it does not hold them) or else beside the checkout (``<repo>/../shared/conformance``).  Missing cases are an error, not a
skip: the suite must not pass without them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest


def conformance_dir() -> Path:
    env = os.environ.get("FASTSCORE_CONFORMANCE")
    if env:  # named: that folder or an error, never a silent fallback to another set of cases
        if not (Path(env) / "score_cases.jsonl").exists():
            raise FileNotFoundError(f"FASTSCORE_CONFORMANCE={env}: no score_cases.jsonl there "
                                    f"({'no such folder' if not Path(env).is_dir() else 'a folder without the cases'}); "
                                    f"unset it to use ../shared/conformance beside the checkout")
        return Path(env)
    for candidate in [Path(__file__).resolve().parents[2] / "shared" / "conformance"]:
        if (candidate / "score_cases.jsonl").exists():
            return candidate
    raise FileNotFoundError(
        "conformance cases not found: expected ../shared/conformance beside the checkout, "
        "or set FASTSCORE_CONFORMANCE to the folder holding score_cases.jsonl"
    )


# Cases whose expected value we believe is wrong after working them by hand:
# {(file name, line number): reason}.  They stay in the run as strict xfails.
DISPUTED: dict[tuple[str, int], str] = {}


def load(name: str) -> list[dict]:
    """Every case of ``score_cases.jsonl`` or ``waits_cases.jsonl``, in file order."""
    with open(conformance_dir() / name) as f:
        return [json.loads(line) for line in f if line.strip()]


def params(name: str) -> list:
    """The cases as pytest params, disputed ones marked strict xfail."""
    out = []
    for line_no, case in enumerate(load(name), start=1):
        marks = [pytest.mark.xfail(strict=True, reason=DISPUTED[(name, line_no)])] if (name, line_no) in DISPUTED else []
        out.append(pytest.param(case, id=f"{name.split('_')[0]}-{line_no}-{case.get('family', 'waits')}", marks=marks))
    return out
