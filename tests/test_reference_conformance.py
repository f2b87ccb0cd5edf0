"""The reference scorer (tests/reference.py) against the shared conformance cases."""

from __future__ import annotations

import pytest

import reference
from conformance import params


@pytest.mark.parametrize("data", params("score_cases.jsonl"))
def test_reference_score_case(data):
    assert reference.score(**data["case"]) == data["result"]


@pytest.mark.parametrize("data", params("waits_cases.jsonl"))
def test_reference_waits_case(data):
    assert reference.waits(**data["case"]) == data["waits"]
