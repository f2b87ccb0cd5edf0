"""One hand at a time: ``fastscore.score`` / ``fastscore.waits`` (one compiled call for the common case) and the
numba-callable one-hand kernels agree with the batch kernels, row for row (RULES.md sections 2 to 7)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import fastscore
from fastscore import HandBatch, io, score_batch, waits_batch
from fastscore import nb
from fastscore.kernels.single import score_hand, waits_hand
from fastscore.rules import load_rules, resolve_rules
from fastscore.tables import kernel_tables

score_module = importlib.import_module("fastscore.score")  # the module (fastscore.score is the function)
waits_module = importlib.import_module("fastscore.waits")
SCORE_KEYS = ("hand", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing")
WAITS_KEYS = ("hand", "seat", "round", "flowers", "streak", "closing")


def _no_batch_of_one(*args, **kwargs):
    raise AssertionError("the one-call path was expected, not the batch of one")


@pytest.fixture
def one_call_only(monkeypatch):
    """A function that makes every later call fail if it leaves the compiled one-hand path for the batch of one."""
    def forbid():
        monkeypatch.setattr(score_module, "_single", _no_batch_of_one)
        monkeypatch.setattr(waits_module.HandBatch, "from_records", _no_batch_of_one)
    return forbid


def test_score_one_call_equals_the_batch_kernel(one_call_only):
    records = io.hand_records(fastscore.sample_winning(3000, seed=11))
    expected = score_batch(HandBatch.from_records(records))
    one_call_only()
    for i, record in enumerate(records):
        assert fastscore.score(**{k: record[k] for k in SCORE_KEYS}) == expected.score_at(i), record


def test_score_one_call_with_another_rule_table(one_call_only, tmp_path):
    # A table where Self-draw is worth 7 instead of 1: a self-drawn win gains 6 points (RULES.md 4, self_draw).
    source = Path(resolve_rules(None).path).read_text(encoding="utf-8")
    row = 'id = "self_draw"\npoints = 1\n'
    assert source.count(row) == 1
    path = tmp_path / "rules.toml"
    path.write_text(source.replace(row, 'id = "self_draw"\npoints = 7\n'))
    table = load_rules(path)
    one_call_only()
    hand = dict(hand="11m99m77p11s9s EE RR 333p", win="9s", self_drawn=True, seat="S")
    # Nico Nico 40 + all five suits 10 + self-draw 7 + no flowers 1 = 58 points; + base 5 = 63.
    assert fastscore.score(**hand, rules=table).total == 63
    assert fastscore.score(**hand).total == 57  # the packaged table: self-draw 1


def test_waits_one_call_equals_the_batch_kernel(one_call_only):
    records = io.hand_records(fastscore.sample_ready(1000, seed=12))
    expected = waits_batch(HandBatch.from_records(records, require_win=False))
    one_call_only()
    for i, record in enumerate(records):
        got = fastscore.waits(**{k: record[k] for k in WAITS_KEYS})
        assert got == expected.waits_at(i) and list(got) == list(expected.waits_at(i)), record


def test_one_hand_results_are_the_callers_own(one_call_only):
    # score() and waits() reuse their output arrays: what a caller does to one result must not reach the next.
    one_call_only()
    hand = dict(hand="11m99m77p11s9s EE RR 333p", win="9s", self_drawn=True, seat="S")
    first = fastscore.score(**hand)
    # Nico Nico 40 + all five suits 10 + self-draw 1 + no flowers 1 = 52 points, + the base 5 (RULES.md 4, 6.2).
    rows = {"nico_nico": 40, "all_five_suits": 10, "self_draw": 1, "no_flowers": 1, "mahjong_base": 5}
    assert first.rows == rows and first.total == 57
    first.rows["nico_nico"] = 0
    first.rows["extra"] = 1
    assert fastscore.score(**hand).rows == rows
    ready = "123m456p 11z 56s [777m] [999s]"
    waits = fastscore.waits(ready, seat="S")
    assert list(waits) == ["4s", "7s"]
    fastscore.waits("1122334477778899s")  # other waits, written to the same arrays
    assert list(waits) == ["4s", "7s"] and waits == fastscore.waits(ready, seat="S")


def test_one_hand_calls_made_inside_one_another(one_call_only):
    # A signal handler can run between any two lines of score() or waits() and call them again: a trace
    # function stands in for it, scoring another hand and asking for other waits at every line of the outer
    # calls. Each call must keep its own arrays (the outer one holds its thread's while it runs).
    outer, inner = dict(hand="11m99m77p11s9s EE RR 333p", win="9s", self_drawn=True, seat="S"), \
        dict(hand="123m456p789s 234s G [555z]", win="G")
    ready, other = dict(hand="123m456p 11z 56s [777m] [999s]", seat="S"), dict(hand="1122334477778899s")
    want = (fastscore.score(**outer), fastscore.score(**inner), fastscore.waits(**ready), fastscore.waits(**other))
    one_call_only()
    nested = []

    def on_line(frame, event, arg):
        if event == "line":  # calls made here are not traced themselves
            nested.append((fastscore.score(**inner), fastscore.waits(**other)))
        return on_line

    codes = (score_module.score.__code__, waits_module.waits.__code__)
    previous = sys.gettrace()
    sys.settrace(lambda frame, event, arg: on_line if frame.f_code in codes else None)
    try:
        got = (fastscore.score(**outer), fastscore.waits(**ready))
    finally:
        sys.settrace(previous)
    assert got == (want[0], want[2])
    assert len(nested) > 20 and all(pair == (want[1], want[3]) for pair in nested)


def test_one_hand_calls_from_several_threads_equal_the_batch(one_call_only):
    # Each thread has its own output arrays: threads calling at once get their own hands' results.
    from concurrent.futures import ThreadPoolExecutor
    wins = io.hand_records(fastscore.sample_winning(2000, seed=17))
    scored = score_batch(HandBatch.from_records(wins))
    ready = io.hand_records(fastscore.sample_ready(1000, seed=18))
    waited = waits_batch(HandBatch.from_records(ready, require_win=False))
    one_call_only()
    with ThreadPoolExecutor(4) as pool:
        scores = list(pool.map(lambda r: fastscore.score(**{k: r[k] for k in SCORE_KEYS}), wins))
        waits = list(pool.map(lambda r: fastscore.waits(**{k: r[k] for k in WAITS_KEYS}), ready))
    assert scores == [scored.score_at(i) for i in range(len(wins))]
    assert waits == [waited.waits_at(i) for i in range(len(ready))]


@pytest.mark.parametrize("call", [
    dict(hand="11111m99m77p11s9s EE RR", win="9s"),  # a fifth copy: the row check fails
    dict(hand="11m99m77p11s9s EE RR 333x", win="9s"),  # the parser fails
    dict(hand="11m99m77p11s9s EE RR 333p", win="9s", seat="SW"),  # not a wind: the batch of one decides
    dict(hand="11m99m77p11s9s EE RR 333p", win="9s", streak=2**40),  # out of int32: the batch of one decides
    dict(hand="11m99m77p11s9s EE RR 333p", win="９s"),  # non-ASCII: the batch of one decides
])
def test_score_errors_are_the_batch_of_one_errors(call):
    with pytest.raises(ValueError) as fast:
        fastscore.score(**call)
    record = {"win": call["win"], **call}
    batch = HandBatch.from_records([record])
    assert batch.error[0] != 0
    assert str(fast.value) == batch.messages[0].removeprefix("row 0: ")


def test_score_other_argument_types_give_the_same_score():
    # numpy and text flags go through the batch of one; the score is the same.
    base = dict(hand="123m456p789s 234s G [555z]", win="G")
    plain = fastscore.score(**base, self_drawn=True, streak=2, seat="E")
    assert fastscore.score(**base, self_drawn=np.bool_(True), streak=np.int64(2), seat="E") == plain
    assert plain.is_win and plain.payout > 0


@numba.njit
def _user_loop(concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, rules,
               suit_entries, dec_words, payout, row_points):
    # What a simulation does: one hand at a time, inside its own compiled loop, one scratch for all.
    scratch = nb.make_scratch()
    for i in range(concealed.shape[0]):
        code, is_win, shape, points, chicken, total, legal, pay = score_hand(
            concealed[i], declared[i], win[i], self_drawn[i], seat[i], round_wind[i], flowers[i], streak[i],
            closing[i], rules, suit_entries, dec_words, row_points[i], scratch)
        payout[i] = pay if code == 0 else -1


def test_score_hand_inside_a_user_njit_loop_equals_score_batch():
    batch = fastscore.sample_winning(10_000, seed=13)
    expected = score_batch(batch)
    _, suit_entries, dec_words = kernel_tables()
    payout = np.zeros(len(batch), dtype=np.int64)
    row_points = np.zeros((len(batch), len(fastscore.ROW_IDS)), dtype=np.int16)
    _user_loop(batch.concealed, batch.declared, batch.win, batch.self_drawn, batch.seat, batch.round, batch.flowers,
               batch.streak, batch.closing, resolve_rules(None).packed, suit_entries, dec_words, payout, row_points)
    np.testing.assert_array_equal(payout, expected.payout)
    # nb.N_ROWS columns hold every table's rows in force: the table's first, in its row_ids order, then zeros.
    width = len(expected.row_ids)
    np.testing.assert_array_equal(row_points[:, :width], expected.row_points)
    assert not row_points[:, width:].any()


def test_score_hand_called_from_python_equals_score_batch():
    # One hand's arrays a call from Python with Python's int and bool for the context (the path README.md
    # gives for a script that holds one hand): each hand's own context, so every argument is read.
    batch = fastscore.sample_winning(1000, seed=15)
    assert len(set(batch.seat.tolist())) == 4 and batch.self_drawn.any() and batch.flowers.any()
    expected = score_batch(batch)
    rules, (_, suit_entries, dec_words) = nb.rule_array(), nb.tables()
    scratch, row_points = nb.make_scratch(), np.zeros(nb.N_ROWS, dtype=np.int16)
    width = len(expected.row_ids)
    for i in range(len(batch)):
        code, is_win, shape, points, chicken, total, legal, payout = nb.score_hand(
            batch.concealed[i], batch.declared[i], int(batch.win[i]), bool(batch.self_drawn[i]), int(batch.seat[i]),
            int(batch.round[i]), int(batch.flowers[i]), int(batch.streak[i]), bool(batch.closing[i]), rules,
            suit_entries, dec_words, row_points, scratch)
        assert code == 0
        assert (is_win, shape, points, chicken, total, legal, payout) == (
            expected.is_win[i], expected.shape[i], expected.points[i], expected.chicken[i], expected.total[i],
            expected.legal[i], expected.payout[i])
        np.testing.assert_array_equal(row_points[:width], expected.row_points[i])


def test_waits_hand_equals_waits_batch():
    batch = fastscore.sample_ready(2000, seed=14)
    expected = waits_batch(batch)
    tables = kernel_tables()
    packed = resolve_rules(None).packed
    mask = np.zeros(34, dtype=np.bool_)
    discard = np.zeros(34, dtype=np.int32)
    self_draw = np.zeros(34, dtype=np.int32)
    for i in range(len(batch)):
        code, n = waits_hand(batch.concealed[i], batch.declared[i], batch.seat[i], batch.round[i], batch.flowers[i],
                             batch.streak[i], batch.closing[i], packed, *tables, mask, discard, self_draw,
                             nb.make_scratch())
        assert code == 0 and n == expected.n_waits[i]
        np.testing.assert_array_equal(mask, expected.mask[i])
        np.testing.assert_array_equal(discard, expected.payout_discard[i])
        np.testing.assert_array_equal(self_draw, expected.payout_self_draw[i])


@numba.njit
def _user_win_checks(concealed, declared, win, suit_info, out):
    scratch = nb.make_scratch()
    for i in range(concealed.shape[0]):
        code, is_win = nb.win_check_hand(concealed[i], declared[i], win[i], suit_info, scratch)
        out[i] = is_win if code == 0 else False


def test_win_check_hand_inside_a_user_njit_loop_equals_win_check():
    # 10,000 winning hands and the same hands with another winning tile (mostly not wins).
    batch = fastscore.sample_winning(10_000, seed=15)
    moved = ((batch.win.astype(np.int64) + 5) % 34).astype(np.int8)
    other = HandBatch.from_arrays(batch.concealed, batch.declared, moved)
    for b in (batch, other):
        expected = fastscore.win_check(b)
        got = np.zeros(len(b), dtype=np.bool_)
        _user_win_checks(b.concealed, b.declared, b.win, nb.tables()[0], got)
        np.testing.assert_array_equal(got, expected)
    assert fastscore.win_check(batch).all() and not fastscore.win_check(other).all()


@numba.njit
def _user_waits(concealed, declared, rules, suit_info, suit_entries, dec_words, n_waits, discard, self_draw):
    mask = np.zeros(34, dtype=np.bool_)
    scratch = nb.make_scratch()
    for i in range(concealed.shape[0]):
        code, n = nb.waits_hand(concealed[i], declared[i], 0, 0, 0, 0, False, rules, suit_info, suit_entries,
                                dec_words, mask, discard[i], self_draw[i], scratch)
        n_waits[i] = n if code == 0 else -1


def test_waits_hand_inside_a_user_njit_loop_equals_waits_batch():
    batch = fastscore.sample_ready(10_000, seed=16)
    batch = HandBatch.from_arrays(batch.concealed, batch.declared)  # East seat and round, no flowers
    expected = waits_batch(batch)
    n = len(batch)
    n_waits = np.zeros(n, dtype=np.int64)
    discard = np.zeros((n, 34), dtype=np.int32)
    self_draw = np.zeros((n, 34), dtype=np.int32)
    _user_waits(batch.concealed, batch.declared, nb.rule_array(), *nb.tables(), n_waits, discard, self_draw)
    np.testing.assert_array_equal(n_waits, expected.n_waits)
    np.testing.assert_array_equal(discard, expected.payout_discard)
    np.testing.assert_array_equal(self_draw, expected.payout_self_draw)


def test_a_rule_table_is_read_only():
    # A table is a value: an in-place edit would reach the batch kernels but not the one-call path's
    # packed copy (and load_rules hands the packaged table out again), so it is refused.
    table = resolve_rules(None)
    with pytest.raises(ValueError, match="read-only"):
        table.points[0] = 7


def test_a_bad_hand_is_named_before_a_bad_rule_table(tmp_path):
    with pytest.raises(ValueError, match="unknown letter 'b'"):
        fastscore.score("bad", "9s", rules=tmp_path / "missing.toml")
    with pytest.raises(ValueError, match="unknown letter 'b'"):
        fastscore.waits("bad", rules=tmp_path / "missing.toml")
    with pytest.raises(ValueError, match="rule table"):
        fastscore.score("11m99m77p11s9s EE RR 333p", "9s", rules=tmp_path / "missing.toml")


@pytest.mark.parametrize("field, value", [("win", 282), ("win", -129), ("seat", 257), ("seat", -255),
                                          ("round_wind", 256), ("flowers", 257), ("streak", 2**32 + 5)])
def test_numbers_that_do_not_fit_their_column_are_flagged_not_wrapped(field, value):
    # 282 would wrap to 26 as int8, a seat of 257 to 1, a streak of 2**32 + 5 to 5: each is flagged instead.
    batch = fastscore.sample_winning(1, seed=17)
    args = dict(win=int(batch.win[0]), seat=0, round_wind=0, flowers=0, streak=0)
    _, suit_entries, dec_words = kernel_tables()
    row_points = np.ones(len(fastscore.ROW_IDS), dtype=np.int16)
    ok = score_hand(batch.concealed[0], batch.declared[0], args["win"], False, 0, 0, 0, 0, False,
                    resolve_rules(None).packed, suit_entries, dec_words, row_points, nb.make_scratch())
    assert ok[0] == 0 and ok[1]  # the hand itself is a valid win
    args[field] = value
    got = score_hand(batch.concealed[0], batch.declared[0], args["win"], False, args["seat"], args["round_wind"],
                     args["flowers"], args["streak"], False, resolve_rules(None).packed, suit_entries, dec_words,
                     row_points, nb.make_scratch())
    assert got[0] != 0 and not got[1] and got[-1] == 0 and not row_points.any()
    if field != "win":
        mask = np.zeros(34, dtype=np.bool_)
        payouts = np.zeros((2, 34), dtype=np.int32)
        code, n = waits_hand(batch.concealed[0], batch.declared[0], args["seat"], args["round_wind"], args["flowers"],
                             args["streak"], False, resolve_rules(None).packed, *kernel_tables(), mask, payouts[0],
                             payouts[1], nb.make_scratch())
        assert code != 0 and n == 0
    else:
        code, is_win = nb.win_check_hand(batch.concealed[0], batch.declared[0], value, nb.tables()[0],
                                         nb.make_scratch())
        assert code != 0 and not is_win
