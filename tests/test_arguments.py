"""Typed arguments: the Python API takes what the notation and the arrays take, one conversion per
argument, and refuses the rest naming the argument (issue 20, point 2)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from click.testing import CliRunner

import fastscore
from fastscore import HandBatch, score_batch
from fastscore.cli import app

NICO = "11m99m77p11s9s EE RR 333p"  # by South on a discard: 56; self-drawn: 57
READY = "123m456p 11z 56s [777m] [999s]"  # waits on 4s and 7s


def test_a_tile_index_and_its_notation_agree():
    """``score(H, 26)`` once raised while ``seat=1`` was taken: ints are the HandBatch values everywhere."""
    by_name = fastscore.score(NICO, "9s", seat="S", round="E")
    by_index = fastscore.score(NICO, 26, seat=1, round=0)
    assert by_index == by_name and by_index.total == 56
    assert fastscore.score(NICO, np.int8(26), seat=np.uint8(1)) == by_name
    assert fastscore.interpretations(NICO, 26, seat=1) == fastscore.interpretations(NICO, "9s", seat="S")
    assert fastscore.waits(READY, seat=1) == fastscore.waits(READY, seat="S")
    with pytest.raises(ValueError, match="winning tile 34 is out of range"):
        fastscore.score(NICO, 34)
    with pytest.raises(ValueError, match="winning tile True is not a tile"):
        fastscore.score(NICO, True)
    with pytest.raises(ValueError, match="seat 4 is not a wind"):
        fastscore.score(NICO, "9s", seat=4)


@pytest.mark.parametrize("rows", [1, 40])  # the Python parser, and the compiled one (a table of 40)
def test_records_take_a_tile_index_as_score_does(rows):
    records = [{"hand": NICO, "win": 26, "seat": 1}] * rows
    batch = HandBatch.from_records(records)
    assert batch.win.tolist() == [26] * rows and batch.error.tolist() == [0] * rows
    table = pa.table({"hand": [NICO] * 3, "win": pa.array([26, 40, None], pa.int16())})
    flagged = HandBatch.from_arrow(table)
    assert flagged.error.tolist() == [0, 5, 5]  # BAD_WIN
    assert flagged.messages[1].startswith("row 1: winning tile 40 is out of range")
    assert flagged.messages[2] == "row 2: no winning tile: 'win' is missing or empty (a tile such as '9s', or its index 0-33)"


def test_a_flag_is_true_false_1_or_0():
    """``from_arrays(self_drawn=[2])`` once meant True without a word."""
    counts = np.zeros((2, 34), dtype=np.uint8)
    for value in ([2, 0], 2, np.int64(-1)):
        with pytest.raises(ValueError, match="self_drawn must be True or False"):
            HandBatch.from_arrays(counts, self_drawn=value)
    with pytest.raises(ValueError, match="closing must hold booleans .* got dtype float64"):
        HandBatch.from_arrays(counts, closing=[0.5, 1.0])
    assert HandBatch.from_arrays(counts, self_drawn=[1, 0]).self_drawn.tolist() == [True, False]
    with pytest.raises(ValueError, match="self_drawn 2 is not true or false"):
        fastscore.score(NICO, "9s", self_drawn=2)
    assert fastscore.score(NICO, "9s", self_drawn=1) == fastscore.score(NICO, "9s", self_drawn=True)


def test_a_column_of_the_wrong_length_is_named():
    counts = np.zeros((2, 34), dtype=np.uint8)
    for name in ("win", "seat", "self_drawn"):
        for value, shape in (([1, 0, 1], "3"), ([1], "1")):  # (1,) too: one value a row, not broadcast
            with pytest.raises(ValueError, match=f"{name} must be a scalar or of shape \\(2,\\) \\(one value a row\\), "
                                                 f"got \\({shape},\\)"):
                HandBatch.from_arrays(counts, **{name: value})


def test_lower_case_winds_are_refused_everywhere():
    """Winds are upper case, as in hand notation (where 'e' is no tile): the same answer from every door."""
    with pytest.raises(ValueError, match="seat 's' is not a wind"):
        fastscore.score(NICO, "9s", seat="s")
    with pytest.raises(ValueError, match="round 'e' is not a wind"):
        fastscore.waits(READY, round="e")
    for rows in (1, 40):
        batch = HandBatch.from_records([{"hand": NICO, "win": "9s", "seat": "s"}] * rows)
        assert batch.messages[0] == "row 0: seat 's' is not a wind (E, S, W or N)"
    result = CliRunner().invoke(app, ["score", NICO, "--win", "9s", "--seat", "s"])
    assert result.exit_code == 2 and "seat 's' is not a wind" in result.stderr
    assert score_batch(HandBatch.from_records([{"hand": NICO, "win": "9s", "seat": "S"}])).total.tolist() == [56]


def test_a_bool_is_a_flag_not_a_tile_or_a_wind():
    """``from_arrays(win=True)`` once meant tile 1 (2m) while a bool ``win`` array was refused."""
    counts = np.zeros((2, 34), dtype=np.uint8)
    for name in ("win", "seat", "flowers"):
        for value in (True, np.bool_(False), [True, False]):
            with pytest.raises(ValueError, match=f"{name} must hold integers.*, got dtype bool"):
                HandBatch.from_arrays(counts, **{name: value})
    # a wind as its letter: the message says how from_arrays takes winds
    with pytest.raises(ValueError, match=r"seat must hold integers \(winds as 0-3: East South West North\), got dtype <U1"):
        HandBatch.from_arrays(counts, seat="S")
    assert HandBatch.from_arrays(counts, self_drawn=True, closing=np.bool_(True)).self_drawn.tolist() == [True] * 2


def test_a_batch_of_no_rows_takes_empty_lists():
    """``np.asarray([])`` is float64: an empty column holds nothing to misread, so it is not refused."""
    empty = HandBatch.from_arrays(np.zeros((0, 34)), np.zeros((0, 5, 2)), win=[], seat=[], self_drawn=[])
    assert len(empty) == 0 and empty.win.dtype == np.int8 and empty.self_drawn.dtype == np.bool_
    assert score_batch(empty).total.tolist() == []
    with pytest.raises(ValueError, match="win must hold integers, got dtype float64"):
        HandBatch.from_arrays(np.zeros((1, 34), dtype=np.uint8), win=[3.0])


def test_held_counts_of_a_non_batch_is_a_value_error():
    from fastscore.batch import held_counts

    for bad in (None, [[0] * 34]):
        with pytest.raises(ValueError, match="expected a HandBatch"):
            held_counts(bad)
