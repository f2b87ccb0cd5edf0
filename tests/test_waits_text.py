"""The compiled ``waits_json`` writer (fastscore/waits_text.py) against ``json.dumps`` of ``waits_at``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fastscore import sample_ready, waits_batch
from fastscore._jit import SERIAL_MAX_ROWS
from fastscore.waits import WaitsResult
from fastscore.waits_text import waits_json_array


def expected(result: WaitsResult) -> list[str]:
    return [json.dumps(result.waits_at(i), separators=(",", ":")) for i in range(len(result))]


def test_real_waits_as_json_dumps_writes_them():
    result = waits_batch(sample_ready(3_000, seed=4))  # serial and parallel builds both run below
    texts = waits_json_array(result.mask, result.payout_discard, result.payout_self_draw).to_pylist()
    assert texts == expected(result)
    small = result.mask[:SERIAL_MAX_ROWS], result.payout_discard[:SERIAL_MAX_ROWS], result.payout_self_draw[:SERIAL_MAX_ROWS]
    assert waits_json_array(*small).to_pylist() == texts[:SERIAL_MAX_ROWS]
    assert json.loads(texts[0]) == result.waits_at(0)


@pytest.mark.parametrize("n", [0, 1, 7, 2_000])
def test_any_payouts_signs_and_widths(n):
    rng = np.random.default_rng(n)
    mask = rng.random((n, 34)) < 0.3
    discard = rng.integers(np.iinfo(np.int32).min, np.iinfo(np.int32).max, (n, 34), endpoint=True).astype(np.int32)
    self_draw = rng.integers(-12, 120, (n, 34)).astype(np.int32)
    if n:
        discard[0] = np.iinfo(np.int32).min  # the widest text
        mask[0] = True
        mask[-1] = False  # not ready: {}
        self_draw[0, :10] = np.arange(10) * 10 ** np.arange(10) // 10  # 0, 1, 20, 300, ... every width
    result = WaitsResult(mask, discard, self_draw, mask.sum(axis=1).astype(np.int16), np.zeros(n, np.uint8), {})
    assert waits_json_array(mask, discard, self_draw).to_pylist() == expected(result)
