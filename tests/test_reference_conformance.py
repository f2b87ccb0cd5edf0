"""The reference scorer (tests/reference.py) against the shared conformance cases.

The cases live in ``shared/conformance`` next to the repository (or in the
folder named by ``FASTSCORE_CONFORMANCE``); without them these tests skip.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference  # noqa: E402


def conformance_dir() -> Path | None:
    here = Path(__file__).resolve().parents[2] / "shared" / "conformance"
    if (here / "score_cases.jsonl").exists():
        return here
    env = os.environ.get("FASTSCORE_CONFORMANCE")
    if env and (Path(env) / "score_cases.jsonl").exists():
        return Path(env)
    return None


CONFORMANCE = conformance_dir()

# Cases whose expected value we believe is wrong after working them by hand:
# {(file name, line number): reason}.  They stay in the run as strict xfails.
DISPUTED: dict[tuple[str, int], str] = {}


def load_cases(name: str) -> list:
    if CONFORMANCE is None:
        return [pytest.param(None, marks=pytest.mark.skip(reason="conformance cases not found"))]
    params = []
    with open(CONFORMANCE / name) as f:
        for line_no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            marks = []
            if (name, line_no) in DISPUTED:
                marks.append(pytest.mark.xfail(strict=True, reason=DISPUTED[(name, line_no)]))
            params.append(pytest.param(json.loads(line), id=f"{name.split('_')[0]}-{line_no}", marks=marks))
    return params


@pytest.mark.parametrize("data", load_cases("score_cases.jsonl"))
def test_score_case(data):
    assert reference.score(**data["case"]) == data["result"]


@pytest.mark.parametrize("data", load_cases("waits_cases.jsonl"))
def test_waits_case(data):
    assert reference.waits(**data["case"]) == data["waits"]
