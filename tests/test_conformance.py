"""fastscore against the shared conformance cases, one hand at a time and as one batch."""

from __future__ import annotations

import pytest

import fastscore
from conformance import load, params


@pytest.mark.parametrize("data", params("score_cases.jsonl"))
def test_score_case(data):
    assert fastscore.score(**data["case"]).to_dict() == data["result"]


@pytest.mark.parametrize("data", params("waits_cases.jsonl"))
def test_waits_case(data):
    assert fastscore.waits(**data["case"]) == data["waits"]


def test_score_batch_on_all_cases():
    cases = load("score_cases.jsonl")
    result = fastscore.score_batch(fastscore.HandBatch.from_records(c["case"] for c in cases))
    got = [{k: v for k, v in r.items() if k != "error"} for r in result.to_records()]
    assert got == [c["result"] for c in cases]
    assert not result.error.any()


def test_waits_batch_on_all_cases():
    cases = load("waits_cases.jsonl")
    result = fastscore.waits_batch(fastscore.HandBatch.from_records((c["case"] for c in cases), require_win=False))
    assert [r["waits"] for r in result.to_records()] == [c["waits"] for c in cases]
    assert result.n_waits.tolist() == [len(c["waits"]) for c in cases]


def test_a_conformance_folder_named_but_missing_is_an_error(monkeypatch, tmp_path):
    """``FASTSCORE_CONFORMANCE`` naming a folder without the cases once fell back to ../shared silently."""
    import os

    from conformance import conformance_dir

    given = os.environ.get("FASTSCORE_CONFORMANCE")  # a checkout not beside ../shared names its cases so
    monkeypatch.setenv("FASTSCORE_CONFORMANCE", str(tmp_path / "nope"))
    with pytest.raises(FileNotFoundError, match="FASTSCORE_CONFORMANCE=.*nope: no score_cases.jsonl there"):
        conformance_dir()
    if given:
        monkeypatch.setenv("FASTSCORE_CONFORMANCE", given)
    else:
        monkeypatch.delenv("FASTSCORE_CONFORMANCE")
    assert (conformance_dir() / "score_cases.jsonl").exists()
