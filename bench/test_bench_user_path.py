"""Benchmarks of the path a research script takes, the build included (issue: "a research script gets
kernel speed").

- ``from_arrays``: the caller's ``(N, 34) uint8`` counts, ``(N, 5, 2) int8`` declared sets and
  ``(N,) int8`` winning tiles through ``HandBatch.from_arrays`` and ``score_batch``, timed together,
  at N = 1 (one hand), 1,000 (one step of 1,000 simulated tables) and 1e6; and the same asking for the
  payouts only (``rows=False``) into a reused result (``out=``).
- ``from_records``: 1e5 Python dicts (notation) through ``HandBatch.from_records`` and ``score_batch``.
- ``score()`` / ``waits()``: one call a hand, in notation, 1,000 different hands.
- ``nb from Python``: ``fastscore.nb.score_hand`` called from Python, one hand's arrays a call, 1,000 hands.
- ``nb loop``: ``fastscore.nb.score_hand`` / ``win_check_hand`` called one hand at a time inside
  the caller's own ``@numba.njit`` loop, 1e5 hands (no trip back to Python).

Compare with ``jit_parallel`` of ``test_bench_score.py`` (the kernel alone, on a built batch) in the
summary table.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from benchlib import notation, ready, run, size_id, warm, winning

import fastscore
from fastscore import HandBatch, nb, score_batch
from fastscore.io import hand_records

SIZES = (1, 1_000, 1_000_000)
ROUNDS = {1_000_000: 3}
SINGLE_N = 1_000
NB_N = 100_000
RECORDS_N = 100_000


@pytest.mark.parametrize("n", SIZES, ids=size_id)
def test_arrays_to_scores(benchmark, n):
    batch = winning(n)
    concealed, declared, win = batch.concealed.copy(), batch.declared.copy(), batch.win.copy()
    warm()
    score_batch(HandBatch.from_arrays(concealed[:2048], declared[:2048], win[:2048]))  # the parallel build
    result = run(benchmark, lambda: score_batch(HandBatch.from_arrays(concealed, declared, win)), task="score",
                 impl="from_arrays", family="mixed", n=n, rounds=ROUNDS.get(n))
    assert result.is_win.all()


@pytest.mark.parametrize("n", SIZES, ids=size_id)
def test_arrays_to_payouts(benchmark, n):
    """The same, as a simulation that wants the payouts only: ``rows=False`` (no points per row) into a
    result reused from step to step (``out=``)."""
    batch = winning(n)
    concealed, declared, win = batch.concealed.copy(), batch.declared.copy(), batch.win.copy()
    warm()
    score_batch(HandBatch.from_arrays(concealed[:2048], declared[:2048], win[:2048]), rows=False)
    out = score_batch(HandBatch.from_arrays(concealed, declared, win), rows=False)
    result = run(benchmark, lambda: score_batch(HandBatch.from_arrays(concealed, declared, win), rows=False, out=out),
                 task="score", impl="from_arrays rows=False out=", family="mixed", n=n, rounds=ROUNDS.get(n))
    assert result.is_win.all() and result.row_points.shape == (n, 0)


def test_records_to_scores(benchmark):
    """Python dicts, as a script that holds its hands as records builds them (``io.hand_records``: notation,
    every context key), through ``HandBatch.from_records`` (the compiled parser) and ``score_batch``, 1e5."""
    records = hand_records(winning(RECORDS_N))
    warm()
    score_batch(HandBatch.from_records(records[:2048]))
    result = run(benchmark, lambda: score_batch(HandBatch.from_records(records)), task="score",
                 impl="from_records", family="mixed", n=RECORDS_N, rounds=3)
    assert result.is_win.all()


def test_score_calls(benchmark):
    rows = notation(winning(SINGLE_N))
    warm()
    fastscore.score(rows[0][0], rows[0][1], **rows[0][2])
    result = run(benchmark, lambda: [fastscore.score(hand, win, **ctx) for hand, win, ctx in rows], task="score",
                 impl="score()", family="mixed", n=SINGLE_N, rounds=5)
    assert all(s.is_win for s in result)


def test_waits_calls(benchmark):
    rows = notation(ready(SINGLE_N))
    warm()
    fastscore.waits(rows[0][0], **rows[0][2])
    result = run(benchmark, lambda: [fastscore.waits(hand, **ctx) for hand, _, ctx in rows], task="waits",
                 impl="waits()", family="mixed", n=SINGLE_N, rounds=5)
    assert all(result)


def test_nb_score_hand_from_python(benchmark):
    """One hand's arrays a call from Python, no batch: ``nb.score_hand`` with a scratch and a row-points array
    made once (what a script that holds one hand's counts can call instead of ``from_arrays`` + ``score_batch``
    of one row)."""
    batch = winning(SINGLE_N)
    rules, (_, suit_entries, dec_words) = nb.rule_array(), nb.tables()
    scratch, row_points = nb.make_scratch(), np.zeros(nb.N_ROWS, dtype=np.int16)
    rows = [(batch.concealed[i], batch.declared[i], int(batch.win[i])) for i in range(SINGLE_N)]

    def calls():
        return [nb.score_hand(c, d, w, False, 0, 0, 0, 0, False, rules, suit_entries, dec_words, row_points,
                              scratch)[-1] for c, d, w in rows]

    calls()  # compile (or load) the build for Python's int and bool arguments
    payout = run(benchmark, calls, task="score", impl="nb from Python", family="mixed", n=SINGLE_N, rounds=5)
    expected = score_batch(HandBatch.from_arrays(batch.concealed, batch.declared, batch.win))
    assert payout == expected.payout.tolist()


@numba.njit
def _score_loop(concealed, declared, win, rules, suit_entries, dec_words, payout):
    row_points = np.zeros(nb.N_ROWS, dtype=np.int16)
    scratch = nb.make_scratch()
    for i in range(concealed.shape[0]):
        payout[i] = nb.score_hand(concealed[i], declared[i], win[i], False, 0, 0, 0, 0, False, rules, suit_entries,
                                  dec_words, row_points, scratch)[-1]


@numba.njit
def _win_check_loop(concealed, declared, win, suit_info, out):
    scratch = nb.make_scratch()
    for i in range(concealed.shape[0]):
        out[i] = nb.win_check_hand(concealed[i], declared[i], win[i], suit_info, scratch)[1]


def test_nb_score_hand_in_a_user_loop(benchmark):
    batch = winning(NB_N)
    rules, (_, suit_entries, dec_words) = nb.rule_array(), nb.tables()
    payout = np.zeros(NB_N, dtype=np.int64)
    args = (batch.concealed, batch.declared, batch.win, rules, suit_entries, dec_words, payout)
    _score_loop(*args)  # compile
    run(benchmark, lambda: _score_loop(*args), task="score", impl="nb loop", family="mixed", n=NB_N, rounds=3)
    # The loop scores with East seat and round, no flowers, on a discard: as from_arrays' defaults.
    expected = score_batch(HandBatch.from_arrays(batch.concealed, batch.declared, batch.win))
    np.testing.assert_array_equal(payout, expected.payout)


def test_nb_win_check_hand_in_a_user_loop(benchmark):
    batch = winning(NB_N)
    out = np.zeros(NB_N, dtype=np.bool_)
    args = (batch.concealed, batch.declared, batch.win, nb.tables()[0], out)
    _win_check_loop(*args)  # compile
    run(benchmark, lambda: _win_check_loop(*args), task="win_check", impl="nb loop", family="mixed", n=NB_N,
        rounds=5)
    assert out.all()
