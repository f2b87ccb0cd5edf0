"""The compiled layouts of results (:mod:`fastscore.kernels.layout`) against numpy's own, on random arrays of
every dtype the output columns pass them, with empty rows, an empty array and no rows at all."""

from __future__ import annotations

import numpy as np
import pytest

from fastscore.kernels.layout import nonzero_by_row, transpose_rows


def _numpy_hits(a):
    mask = a != 0
    offsets = np.concatenate([[0], np.cumsum(mask.sum(axis=1))]).astype(np.int32)
    flat = np.flatnonzero(mask.reshape(-1))
    return offsets, flat, (flat % a.shape[1]).astype(np.int32)


def test_nonzero_by_row_of_a_small_array_worked_by_hand():
    a = np.array([[0, 3, 0, 5], [0, 0, 0, 0], [7, 0, 0, 1]], dtype=np.int16)
    offsets = np.empty(4, dtype=np.int32)
    flat, columns = nonzero_by_row(a, offsets)
    # Row 0: columns 1 and 3 (flat 1, 3); row 1: none; row 2: columns 0 and 3 (flat 8, 11).
    assert offsets.tolist() == [0, 2, 2, 4]
    assert flat.tolist() == [1, 3, 8, 11] and flat.dtype == np.int64
    assert columns.tolist() == [1, 3, 0, 3] and columns.dtype == np.int32


@pytest.mark.parametrize("dtype", [np.int16, np.bool_, np.int8, np.uint64])
@pytest.mark.parametrize("shape", [(0, 45), (1, 1), (7, 34), (1000, 45), (300, 70)])
def test_nonzero_by_row_matches_numpy(dtype, shape):
    rng = np.random.default_rng(sum(shape))
    a = (rng.random(shape) < 0.1) * rng.integers(1, 5, shape)
    a[::3] = 0  # rows without an entry
    a = a.astype(dtype)
    offsets = np.empty(shape[0] + 1, dtype=np.int32)
    flat, columns = nonzero_by_row(a, offsets)
    want = _numpy_hits(a)
    for got, expected in zip((offsets, flat, columns), want):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shape", [(0, 45), (1, 1), (129, 45), (1000, 3)])
def test_transpose_rows_matches_numpy(shape):
    a = np.random.default_rng(1).integers(-100, 100, shape).astype(np.int16)
    out = np.empty(shape[::-1], dtype=np.int16)
    transpose_rows(a, out)
    np.testing.assert_array_equal(out, a.T)
