"""Plain batches (HandBatch, Notes): columns as given, every row checked by the kernels that read it.

The kernels do not check array bounds, so each batch kernel runs the row check
(:func:`fastscore.kernels.checks.row_fault`) on every row it reads; a bad row becomes a
flagged result row, never a read out of bounds, however the batch was built.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pyarrow as pa
import pytest

import fastscore
from fastscore import ErrorCode, HandBatch, io, score_batch, waits_batch, win_check
from fastscore import records
from fastscore.checks import COLUMNS
from fastscore.score import _OUT_DTYPES, BatchResult
from fastscore.tiles import TILE_NAMES

# Seed example (5.1), seat S, self-drawn: nico_nico 40 + no_flowers 1 + self_draw 1 + all_five_suits 10 = 52,
# + base 5 = 57.
SEED = dict(hand="11m99m77p11s9s EE RR 333p", win="9s", self_drawn=True, seat="S", round="E")
SEED_PAYOUT = 57


def constructed():
    """(name, batch) for every way the package builds a scoring batch of the seed hand."""
    record = dict(SEED)
    one = HandBatch.from_records([record])
    structured = np.zeros(1, dtype=[("hand", "U40"), ("win", "U4"), ("self_drawn", "?"), ("seat", "U2")])
    structured[0] = (SEED["hand"], SEED["win"], True, "S")
    return [
        ("from_records", one),
        ("from_arrays", HandBatch.from_arrays(one.concealed, one.declared, one.win, self_drawn=True, seat=1)),
        ("from_arrow", HandBatch.from_arrow(pa.table({k: [v] for k, v in record.items()}))),
        ("from_structured", HandBatch.from_structured(structured)),
        ("encoded table", io.batch_from_table(io.encoded_table(one), encoded=True)),
        ("records.parse_records", HandBatch(**vars(records.parse_records([record])))),
    ]


@pytest.mark.parametrize("name, batch", constructed(), ids=[c[0] for c in constructed()])
def test_every_constructor_gives_the_documented_columns(name, batch):
    for column, dtype, shape in COLUMNS:
        value = getattr(batch, column)
        assert value.dtype == dtype and value.shape == (1, *shape), (name, column)
    assert batch.error.tolist() == [0]
    assert score_batch(batch).payout.tolist() == [SEED_PAYOUT]


def test_from_arrays_does_not_copy_columns_that_fit():
    sample = fastscore.sample_winning(100, seed=2)
    self_drawn = np.zeros(100, dtype=np.bool_)
    batch = HandBatch.from_arrays(sample.concealed, sample.declared, sample.win, self_drawn=self_drawn,
                                  seat=sample.seat, streak=sample.streak)
    for name in ("concealed", "declared", "win", "self_drawn", "seat", "streak"):
        assert np.shares_memory(getattr(batch, name), locals().get(name, getattr(sample, name))), name
    # Another dtype, or a strided view, is converted (a copy).
    wide = HandBatch.from_arrays(sample.concealed.astype(np.int64), win=sample.win[::-1].copy()[::-1])
    assert not np.shares_memory(wide.concealed, sample.concealed) and wide.concealed.dtype == np.uint8
    np.testing.assert_array_equal(score_batch(wide).payout, score_batch(HandBatch.from_arrays(sample.concealed,
                                                                                              win=sample.win)).payout)


def test_the_caller_arrays_stay_writable_and_unchanged():
    sample = fastscore.sample_winning(50, seed=4)
    concealed = sample.concealed.copy()
    batch = HandBatch.from_arrays(concealed, sample.declared, sample.win)
    score_batch(batch)
    waits_batch(batch)
    assert concealed.flags.writeable
    np.testing.assert_array_equal(concealed, sample.concealed)


# fmt: off
BAD_CELLS = [
    # column, row value, code, message fragments
    pytest.param("concealed", lambda b: b.concealed.__setitem__((0, 0), 16), ErrorCode.TILE_COUNT, ["holds"],
                 id="count-16"),
    pytest.param("concealed", lambda b: b.concealed.__setitem__((0, 0), 255), ErrorCode.TILE_COUNT, ["holds"],
                 id="count-255"),
    pytest.param("declared", lambda b: b.declared.__setitem__((0, 0), (2, 100)), ErrorCode.BAD_SET,
                 ["declared set 0", "tile 100"], id="declared-tile-100"),
    pytest.param("declared", lambda b: b.declared.__setitem__((0, 1), (-3, 0)), ErrorCode.BAD_SET,
                 ["declared set 1", "kind -3"], id="declared-kind-negative"),
    pytest.param("win", lambda b: b.win.__setitem__(0, 100), ErrorCode.BAD_WIN, ["win 100", "-1 to 33"],
                 id="win-100"),
    pytest.param("win", lambda b: b.win.__setitem__(0, -7), ErrorCode.BAD_WIN, ["win -7"], id="win-negative"),
    pytest.param("seat", lambda b: b.seat.__setitem__(0, 9), ErrorCode.BAD_CONTEXT, ["seat 9", "0 to 3"], id="seat-9"),
    pytest.param("round", lambda b: b.round.__setitem__(0, 200), ErrorCode.BAD_CONTEXT, ["round 200"], id="round-200"),
    pytest.param("streak", lambda b: b.streak.__setitem__(0, -5), ErrorCode.BAD_CONTEXT, ["streak -5", "0 to 1000"],
                 id="streak-negative"),
]
# fmt: on


@pytest.mark.parametrize("column, spoil, code, fragments", BAD_CELLS)
def test_a_batch_filled_in_by_hand_is_checked_by_every_kernel(column, spoil, code, fragments):
    batch = fastscore.sample_winning(3, seed=5)
    batch = batch.take(slice(None))  # writable copy
    spoil(batch)
    expected = score_batch(fastscore.sample_winning(3, seed=5))
    result = score_batch(batch)
    assert result.error.tolist() == [code, 0, 0]
    assert result.messages[0].startswith("row 0: ")
    for fragment in fragments:
        assert fragment in result.messages[0]
    assert result.payout[1:].tolist() == expected.payout[1:].tolist()  # every other row scored, in order
    assert result.shape[0] == -1 and not result.is_win[0] and not result.row_points[0].any()
    assert win_check(batch).tolist() == [False, True, True]
    if column != "win":  # waits require no winning tile; a bad one is still a bad row
        waits = waits_batch(batch)
        assert waits.error[0] == code and not waits.mask[0].any() and waits.messages[0] == result.messages[0]
    assert batch.error.tolist() == [0, 0, 0]  # the caller's batch is not changed
    checked = batch.check()
    assert checked.error.tolist() == [code, 0, 0] and checked.messages == result.messages


def test_a_column_swapped_after_construction_is_checked():
    batch = HandBatch.from_records([dict(hand="1111m [456p] [789p] [EEE] [SSS]", win="4p")] * 2)
    assert score_batch(batch).error.tolist() == [0, 0]
    batch.win = np.frombuffer(bytes([0, 0]), np.int8)  # 1m: a fifth copy with the four held
    result = score_batch(batch)
    assert result.error.tolist() == [ErrorCode.FIFTH_COPY] * 2
    assert "5 copies of 1m" in result.messages[1]


def test_a_column_of_the_wrong_dtype_is_refused():
    batch = fastscore.sample_winning(2, seed=1).take(slice(None))
    batch.seat = batch.seat.astype(np.int64)
    with pytest.raises(ValueError, match="column 'seat' must be uint8"):
        score_batch(batch)


@pytest.mark.parametrize("column, bad", [
    ("win", lambda b: b.win[:-1]),  # one row short: the kernels would read past its end
    ("concealed", lambda b: np.zeros((len(b), 27), np.uint8)),  # the honours missing
    ("declared", lambda b: np.zeros((len(b), 4, 2), np.int8)),  # four slots, not five
    ("streak", lambda b: list(b.streak)),  # not an array
])
def test_a_column_of_the_wrong_shape_is_refused(column, bad):
    """The kernels trust the shapes they are given (numba checks no bounds): a batch whose column was
    swapped for one of another shape is refused, naming the column, whatever the batch's size."""
    for n in (1, 3):
        batch = fastscore.sample_winning(n, seed=1).take(slice(None))
        setattr(batch, column, bad(batch))
        for kernel in (score_batch, win_check, waits_batch):
            with pytest.raises(ValueError, match=f"column '{column}' must be"):
                kernel(batch)


def test_the_kernels_read_the_batch_columns_without_copies():
    """A batch of writable arrays of the right dtypes is read where it lies (``kernel_columns``)."""
    from fastscore.checks import kernel_columns

    batch = fastscore.sample_winning(5, seed=1)
    for column, (name, _, _) in zip(kernel_columns(batch), COLUMNS):
        assert column is getattr(batch, name), name
    batch.concealed = np.asfortranarray(batch.concealed)  # rows not contiguous: copied for the kernels
    columns = kernel_columns(batch)
    assert columns[0] is not batch.concealed and columns[0].flags.c_contiguous
    np.testing.assert_array_equal(columns[0], batch.concealed)


def test_kernels_have_one_build_whatever_the_writability_of_the_columns():
    """One compiled build of each kernel (writable columns), whatever the writability of the caller's
    arrays: a read-only column (an Arrow buffer) is copied, and scores as the writable one."""
    sample = fastscore.sample_winning(10, seed=5)
    frozen = sample.take(slice(None))
    for name in ("concealed", "declared", "win", "seat", "error"):
        getattr(frozen, name).flags.writeable = False
    expected = score_batch(sample)
    got = score_batch(frozen)
    for name in ("payout", "total", "shape", "row_points", "error"):
        np.testing.assert_array_equal(getattr(got, name), getattr(expected, name))
    waits_batch(sample)
    waits_batch(frozen)
    assert not frozen.concealed.flags.writeable  # the caller's arrays are left as they were
    from fastscore.kernels.batch_loops import score_kernel
    from fastscore.kernels.waits import waits_kernel

    for kernel, n_columns in ((score_kernel.serial, 10), (waits_kernel.serial, 9)):
        assert len(kernel.signatures) == 1
        assert all(arg.mutable for arg in kernel.signatures[0][:n_columns]), kernel.signatures[0][:n_columns]


def test_from_arrays_without_a_winning_tile_is_a_waits_batch():
    one = HandBatch.from_records([dict(hand="123m456p 11z 56s [777m] [999s]", seat="S")], require_win=False)
    for win in (None, np.array([-1])):
        batch = HandBatch.from_arrays(one.concealed, one.declared, win, seat=1)
        assert batch.error.tolist() == [0]
        # Waits 4s and 7s (RULES.md 7): each a Chicken on a discard (the East round minimum, 20) and
        # 0 self-drawn (2 points, under the minimum: RULES.md 9.21).
        assert fastscore.waits_batch(batch).waits_at(0) == {"4s": {"discard": 20, "self_draw": 0},
                                                             "7s": {"discard": 20, "self_draw": 0}}
        # Scored, a hand without a winning tile is a bad row.
        assert score_batch(batch).error.tolist() == [ErrorCode.BAD_WIN]
    mixed = HandBatch.from_arrays(np.repeat(one.concealed, 2, axis=0), np.repeat(one.declared, 2, axis=0),
                                  np.array([-1, 21]), seat=1)
    assert mixed.error.tolist() == [ErrorCode.BAD_WIN, 0]  # -1 in only some rows: those lack a winning tile


def test_take_keeps_every_message():
    batch = HandBatch.from_records([dict(hand="12 3m", win="1m"), SEED, dict(hand="xx", win="1m")])
    taken = batch.take([2, 2, 0, 1])
    assert taken.error.tolist() == [ErrorCode.BAD_TOKEN, ErrorCode.BAD_TOKEN, ErrorCode.BAD_TOKEN, 0]
    assert sorted(taken.messages) == [0, 1, 2]
    # The text still names the input row (the command line reports file rows this way).
    assert [taken.messages[k] for k in (0, 1, 2)] == [batch.messages[2], batch.messages[2], batch.messages[0]]


def test_batches_compare_by_identity():
    batch = HandBatch.from_records([SEED])
    assert batch == batch and batch != batch.take(slice(None))


def test_the_fifth_copy_named_is_the_lowest_kind():
    # 1111m + a declared pong of 1p + 1p 1p concealed... : counts of two kinds pass 4; the lowest is named.
    batch = HandBatch.empty(1)
    batch.concealed[0, TILE_NAMES.index("1m")] = 4
    batch.concealed[0, TILE_NAMES.index("1p")] = 3
    batch.concealed[0, TILE_NAMES.index("9s")] = 6
    batch.win[0] = TILE_NAMES.index("1m")
    batch.declared[0, 0] = (2, TILE_NAMES.index("1p"))
    result = score_batch(batch)
    assert result.error.tolist() == [ErrorCode.FIFTH_COPY]
    assert "5 copies of 1m" in result.messages[0]


def _mixed_batch(n: int, seed: int) -> HandBatch:
    """Sampled winning hands with their winning tiles moved one row on (many then no win, some a fifth
    copy) and one row of five copies: wins, non-wins and flagged rows."""
    hands = fastscore.sample_winning(n, seed=seed)
    concealed = hands.concealed.copy()
    concealed[3, 0] = 5  # RULES.md 2: at most four copies of a kind
    return HandBatch.from_arrays(concealed, hands.declared, np.roll(hands.win, 1), self_drawn=hands.self_drawn,
                                 seat=hands.seat, round=hands.round, flowers=hands.flowers)


SCALAR_COLUMNS = ("payout", "total", "points", "legal", "is_win", "chicken", "shape", "error")


def test_score_batch_without_rows_gives_the_same_totals():
    batch = _mixed_batch(3000, seed=11)
    full = score_batch(batch)
    lean = score_batch(batch, rows=False)
    assert full.is_win.any() and not full.is_win.all() and full.error.any()  # the mix the test is about
    for name in SCALAR_COLUMNS:
        np.testing.assert_array_equal(getattr(lean, name), getattr(full, name), err_msg=name)
    assert lean.messages == full.messages and 3 in lean.messages
    assert lean.row_points.shape == (3000, 0) and lean.row_ids == ()
    # Each column has the dtype BatchResult documents (score_batch makes the arrays in field order).
    assert tuple(_OUT_DTYPES) == tuple(f.name for f in dataclasses.fields(BatchResult))[:len(_OUT_DTYPES)]
    assert {name: str(getattr(full, name).dtype) for name in SCALAR_COLUMNS + ("row_points",)} == {
        "payout": "int32", "total": "int32", "points": "int32", "legal": "bool", "is_win": "bool",
        "chicken": "bool", "shape": "int8", "error": "uint8", "row_points": "int16"}
    assert full.row_points.shape == (3000, len(full.row_ids)) > (3000, 0)
    assert lean.row_counts().shape == (0,) and lean.score_at(0).rows == {}
    # The hand of test_from_arrays_without_a_winning_tile_is_a_waits_batch, won on 4s from a discard:
    # a Chicken at the East round minimum, 20 points (RULES.md 7, 9.21); no row needed for the payout.
    one = HandBatch.from_records([dict(hand="123m456p 11z 56s [777m] [999s]", win="4s", seat="S")])
    assert score_batch(one, rows=False).payout.tolist() == score_batch(one).payout.tolist() == [20]


@pytest.mark.parametrize("rows", [True, False])
def test_score_batch_into_a_reused_result_keeps_nothing_of_the_last_batch(rows):
    first = fastscore.sample_winning(2000, seed=12)  # wins: every output column set
    second = _mixed_batch(2000, seed=13)
    out = score_batch(first, rows=rows)
    arrays = {name: getattr(out, name) for name in SCALAR_COLUMNS + ("row_points",)}
    again = score_batch(second, rows=rows, out=out)
    assert again is out
    assert all(getattr(out, name) is array for name, array in arrays.items())  # filled in place
    expected = score_batch(second, rows=rows)
    for name in SCALAR_COLUMNS + ("row_points",):
        np.testing.assert_array_equal(getattr(out, name), getattr(expected, name), err_msg=name)
    assert out.messages == expected.messages and out.row_ids == expected.row_ids


def test_score_batch_refuses_a_result_that_does_not_fit():
    batch = fastscore.sample_winning(20, seed=14)
    out = score_batch(batch)
    with pytest.raises(ValueError, match=r"out\.payout .*shape \(10,\)"):
        score_batch(batch.take(np.arange(10)), out=out)
    with pytest.raises(ValueError, match=r"out\.row_points .*shape \(20, 0\)"):
        score_batch(batch, rows=False, out=out)
    with pytest.raises(ValueError, match="out must be a BatchResult"):
        score_batch(batch, out={"payout": out.payout})
