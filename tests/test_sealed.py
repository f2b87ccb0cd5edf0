"""Sealed batches: validated once when built, trusted by the kernels afterwards (HandBatch, Notes).

The kernels do not check bounds, so the row checks may be skipped only for a
batch whose columns cannot have changed since it was validated: every
constructor seals its batch (read-only columns, remembered by identity), and
anything that could change a column (a writable copy, a column swapped, a
column made writable again) makes the scoring functions check the rows again.
"""

from __future__ import annotations

import dataclasses
import pickle
import warnings

import numpy as np
import pyarrow as pa
import pytest

import fastscore
from fastscore import ErrorCode, HandBatch, io, score_batch, waits_batch
from fastscore import checks, fastparse
from fastscore.batch import COLUMN_NAMES
from fastscore.tiles import TILE_NAMES

# Seed example (5.1), seat S, self-drawn: nico_nico 40 + no_flowers 1 + self_draw 1 + all_five_suits 10 = 52,
# + base 5 = 57.
SEED = dict(hand="11m99m77p11s9s EE RR 333p", win="9s", self_drawn=True, seat="S", round="E")
SEED_PAYOUT = 57


def constructed():
    """(name, batch, require_win) for every way the package builds a batch."""
    record = dict(SEED)
    one = HandBatch.from_records([record])
    structured = np.zeros(1, dtype=[("hand", "U40"), ("win", "U4"), ("self_drawn", "?"), ("seat", "U2")])
    structured[0] = (SEED["hand"], SEED["win"], True, "S")
    return [
        ("from_records", one, True),
        ("from_records, no win", HandBatch.from_records([record], require_win=False), False),
        ("from_arrays", HandBatch.from_arrays(one.concealed, one.declared, one.win, self_drawn=True, seat=1), True),
        ("from_arrays, no win", HandBatch.from_arrays(one.concealed, one.declared), False),
        ("from_arrow", HandBatch.from_arrow(pa.table({k: [v] for k, v in record.items()})), True),
        ("from_structured", HandBatch.from_structured(structured), True),
        ("sample_winning", fastscore.sample_winning(50, seed=1), True),
        ("sample_ready", fastscore.sample_ready(50, seed=1), False),
        ("encoded table", io.batch_from_table(io.encoded_table(one), encoded=True), True),
        ("io.batch_from_encoded, no win", io.batch_from_encoded(io.encoded_table(one), require_win=False), False),
        ("fastparse.batch_from_arrow", fastparse.batch_from_arrow(pa.table({k: [v] for k, v in record.items()})), True),
        ("fastparse.batch_from_records", fastparse.batch_from_records([record, {"win": "9s"}]), True),
        ("fastparse.batch_from_records, mixed types", fastparse.batch_from_records([record, {**record, "seat": 1}]),
         True),
    ]


@pytest.mark.parametrize("name, batch, require_win", constructed(), ids=[c[0] for c in constructed()])
def test_every_constructor_seals(name, batch, require_win):
    assert batch.is_sealed(require_win=require_win)
    # A batch validated without a winning tile is not trusted for scoring, which needs one.
    assert batch.is_sealed(require_win=True) == require_win
    for name in COLUMN_NAMES:
        column = getattr(batch, name)
        assert not column.flags.writeable, name
        with pytest.raises(ValueError, match="WRITEABLE"):  # the memory is a bytes object
            column.flags.writeable = True
        with pytest.raises(ValueError):
            column.resize((len(batch) + 5,) + column.shape[1:], refcheck=False)
    with pytest.raises(ValueError, match="read-only"):
        batch.concealed[0, 0] = 4


def test_files_are_read_as_sealed_batches(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_text('{"hand": "11m99m77p11s9s EE RR 333p", "win": "9s", "self_drawn": true, "seat": "S"}\n'
                    '{"hand": "12 3m", "win": "1m"}\n')
    (batch,) = io.iter_batches(path)
    assert batch.is_sealed(require_win=True)
    assert batch.error.tolist() == [0, ErrorCode.BAD_TOKEN]
    assert score_batch(batch).payout.tolist() == [SEED_PAYOUT, 0]


def test_a_sealed_batch_skips_the_row_checks(monkeypatch):
    batch = HandBatch.from_records([SEED])
    calls = []
    monkeypatch.setattr(checks, "row_errors", lambda b, **kw: calls.append(len(b)) or b.error.copy())
    assert score_batch(batch).payout.tolist() == [SEED_PAYOUT]
    assert calls == []
    # A copy is writable and not sealed: checked again.
    assert score_batch(batch.take(slice(None))).payout.tolist() == [SEED_PAYOUT]
    assert calls == [1]


def test_a_swapped_column_is_checked_again():
    batch = HandBatch.from_records([SEED, SEED])
    concealed = batch.concealed.copy()
    # Five 1m (two 9m and one 7p fewer, still 16 tiles): the base-5 suit code would index past the tables.
    concealed[1, TILE_NAMES.index("1m")] = 5
    concealed[1, TILE_NAMES.index("9m")] = 0
    concealed[1, TILE_NAMES.index("7p")] = 1
    batch.concealed = concealed
    assert not batch.is_sealed(require_win=True)
    result = score_batch(batch)
    assert result.payout.tolist() == [SEED_PAYOUT, 0]
    assert result.error[1] == ErrorCode.FIFTH_COPY
    assert result.messages[1].startswith("row 1: 5 copies of 1m")


def test_a_column_changed_in_place_is_checked_again():
    """New strides (numpy still allows setting them) give other rows: the batch is no longer sealed."""
    batch = HandBatch.from_records([SEED] * 3)
    with warnings.catch_warnings():  # numpy 2.4 deprecates it, but it still works
        warnings.simplefilter("ignore", DeprecationWarning)
        batch.declared.strides = (0,) + batch.declared.strides[1:]
    assert not batch.is_sealed(require_win=True)
    assert score_batch(batch).payout.tolist() == [SEED_PAYOUT] * 3
    bad = HandBatch.from_records([SEED, dict(SEED, hand="11m99m77p11s9s EE RR [333p]")])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        bad.concealed.strides = (0, 1)  # row 1 reads row 0's 16 concealed tiles beside its declared pong: 19 tiles
    assert score_batch(bad).error.tolist() == [0, ErrorCode.TILE_COUNT]


def test_sealing_copies_the_columns():
    """A sealed column is a copy: whatever the arrays it was built from undergo, it does not change."""
    base = HandBatch.from_records([SEED]).take(slice(None))
    concealed = base.concealed
    batch = HandBatch(concealed, base.declared, base.win, base.self_drawn, base.seat, base.round, base.flowers,
                      base.streak, base.closing, base.error)._seal(True)
    assert batch.concealed is not concealed
    concealed[0, 0] = 16
    assert score_batch(batch).payout.tolist() == [SEED_PAYOUT]


def test_dataclass_helpers_see_only_the_columns():
    batch = HandBatch.from_records([SEED])
    fields = dataclasses.asdict(batch)
    assert "_sealed" not in fields
    rebuilt = HandBatch(**fields)
    assert all(np.array_equal(getattr(rebuilt, c), getattr(batch, c)) for c in COLUMN_NAMES)
    assert not rebuilt.is_sealed(require_win=True)  # asdict copies the arrays (writable): checked again
    assert score_batch(rebuilt).payout.tolist() == [SEED_PAYOUT]
    replaced = dataclasses.replace(batch, seat=np.array([0], dtype=np.uint8))
    assert not replaced.is_sealed(require_win=True)
    # Seat E: the seed hand is then self-drawn by the dealer: 57 + east_wins 5 = 62.
    assert score_batch(replaced).payout.tolist() == [SEED_PAYOUT + 5]


def test_flagging_a_row_keeps_the_seal():
    batch = HandBatch.from_records([SEED, SEED])
    batch._add_flags([0], ErrorCode.BAD_TOKEN, ["row 0: flagged by the reader"])
    assert batch.is_sealed(require_win=True)
    assert not batch.error.flags.writeable
    result = score_batch(batch)
    assert result.payout.tolist() == [0, SEED_PAYOUT]
    assert result.messages == {0: "row 0: flagged by the reader"}


def test_pickled_batches_stay_safe():
    """Dask ships batches by pickle: the copy is either still sealed (read-only) or checked again."""
    batch = fastscore.sample_winning(200, seed=3)
    copy = pickle.loads(pickle.dumps(batch))
    assert not copy.is_sealed(require_win=True)  # new memory: checked again (README, Python API)
    np.testing.assert_array_equal(score_batch(copy).payout, score_batch(batch).payout)


def test_hand_filled_batches_are_never_trusted():
    batch = HandBatch.empty(1)
    batch.concealed[0, TILE_NAMES.index("1m")] = 16
    batch.win[:] = 0
    assert not batch.is_sealed(require_win=False)
    assert score_batch(batch).error.tolist() == [ErrorCode.FIFTH_COPY]


def test_kernels_see_only_read_only_columns():
    """checked() hands the kernels read-only columns, sealed batch or not: one build each, not one per layout."""
    sealed = fastscore.sample_winning(10, seed=5)
    for batch in (sealed, sealed.take(slice(None))):
        score_batch(batch)
        waits_batch(batch)
    from fastscore.kernel import score_kernel
    from fastscore.waits import waits_kernel

    for kernel, n_columns in ((score_kernel.serial, 9), (waits_kernel.serial, 7)):
        assert kernel.signatures
        for signature in kernel.signatures:
            assert not any(arg.mutable for arg in signature[:n_columns]), signature[:n_columns]


def test_a_column_swapped_twice_is_never_taken_for_the_sealed_one():
    """A swapped-in array can get the id and the address of a freed one: the seal keeps its columns alive."""
    batch = HandBatch.from_records([dict(hand="1111m [456p] [789p] [EEE] [SSS]", win="4p")] * 2)
    for _ in range(200):
        batch.win = np.frombuffer(bytes([18, 18]), np.int8)
        batch.win = np.frombuffer(bytes([0, 0]), np.int8)  # 1m: a fifth copy with the four held
        assert not batch.is_sealed(require_win=True)
    assert score_batch(batch).error.tolist() == [ErrorCode.FIFTH_COPY] * 2


def test_from_arrays_without_a_winning_tile_is_a_waits_batch():
    one = HandBatch.from_records([dict(hand="123m456p 11z 56s [777m] [999s]", seat="S")], require_win=False)
    for win in (None, np.array([-1])):
        batch = HandBatch.from_arrays(one.concealed, one.declared, win, seat=1)
        assert batch.error.tolist() == [0] and batch.is_sealed(require_win=False)
        # Waits 4s and 7s (RULES.md 7): each a Chicken on a discard (the East round minimum, 20) and
        # 0 self-drawn (2 points, under the minimum: RULES.md 9.21).
        assert fastscore.waits_batch(batch).waits_at(0) == {"4s": {"discard": 20, "self_draw": 0},
                                                             "7s": {"discard": 20, "self_draw": 0}}
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
