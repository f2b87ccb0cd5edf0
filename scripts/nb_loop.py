"""``fastscore.nb`` one hand at a time inside a caller's ``@numba.njit`` loop, ns a hand, beside
the batch kernels (1 thread) on the same hands: ``PYTHONPATH=CHECKOUT python scripts/nb_loop.py [K]``.

1e5 sampled winning hands (``sample_winning(seed=1)``), or K distinct ones repeated to 1e5 (K = 1000:
the tables they read stay in cache), for ``score_hand`` (beside ``score_batch`` with ``rows=False``) and
``win_check_hand``; 2e4 ready hands (``sample_ready(seed=1)``) for ``waits_hand`` (beside
``waits_batch``); 1e5 dealt 16-tile hands for ``shanten_hand`` (beside ``shanten_batch``) and 1e4 dealt
17-tile hands for ``discards_hand`` (beside ``discard_analysis``), dealt as the shanten benchmarks deal.
Best of 5 loops after one warm-up.  Checks that the loops' results equal the batch kernels'.  One JSON
object.
"""
import json
import sys
import time
from pathlib import Path

import numba
import numpy as np

import fastscore
from fastscore import HandBatch, discard_analysis, nb, score_batch, shanten_batch, waits_batch, win_check

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
# The benchmarks' user loops (bench/test_bench_user_path.py): one hand a call of nb.score_hand / win_check_hand.
from test_bench_user_path import _score_loop as score_loop, _win_check_loop as win_check_loop  # noqa: E402
from test_bench_shanten import dealt  # noqa: E402

N = 100_000
K = int(sys.argv[1]) if len(sys.argv) > 1 else N
distinct = fastscore.sample_winning(K, seed=1)
batch = HandBatch.from_arrays(np.tile(distinct.concealed, (N // K, 1)), np.tile(distinct.declared, (N // K, 1, 1)),
                              np.tile(distinct.win, N // K))


@numba.njit
def waits_loop(concealed, declared, rules, suit_info, suit_entries, dec_words, masks, discard, self_draw):
    scratch = nb.make_scratch()
    for i in range(concealed.shape[0]):
        nb.waits_hand(concealed[i], declared[i], 0, 0, 0, 0, False, rules, suit_info, suit_entries, dec_words,
                      masks[i], discard[i], self_draw[i], scratch)


@numba.njit
def shanten_loop(concealed, declared, number_table, honour_table, out):
    scratch = nb.make_shanten_scratch()
    for i in range(concealed.shape[0]):
        out[i] = nb.shanten_hand(concealed[i], declared[i], -1, number_table, honour_table, scratch)[1]


@numba.njit
def discards_loop(concealed, declared, win, number_table, honour_table, shanten, useful, live_useful):
    scratch = nb.make_shanten_scratch()
    seen = np.zeros(34, dtype=np.int64)
    for i in range(concealed.shape[0]):
        nb.discards_hand(concealed[i], declared[i], win[i], seen, number_table, honour_table, scratch, shanten[i],
                         useful[i], live_useful[i])


def best_ns(f, *args, n=N):
    f(*args)
    best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        f(*args)
        best = min(best, time.perf_counter() - t)
    return round(best / n * 1e9, 1)


rules, (suit_info, suit_entries, dec_words) = nb.rule_array(), nb.tables()
payout = np.zeros(N, dtype=np.int64)
wins = np.zeros(N, dtype=np.bool_)
figures = {"score_hand_ns": best_ns(score_loop, batch.concealed, batch.declared, batch.win, rules, suit_entries,
                                    dec_words, payout),
           "win_check_hand_ns": best_ns(win_check_loop, batch.concealed, batch.declared, batch.win, suit_info, wins)}
sampled = fastscore.sample_ready(N // 5, seed=1)
ready = HandBatch.from_arrays(sampled.concealed, sampled.declared)  # East seat and round, no flowers: as the loop
masks = np.zeros((N // 5, 34), dtype=np.bool_)
discard, self_draw = np.zeros((N // 5, 34), dtype=np.int32), np.zeros((N // 5, 34), dtype=np.int32)
figures["waits_hand_ns"] = best_ns(waits_loop, ready.concealed, ready.declared, rules, suit_info, suit_entries,
                                   dec_words, masks, discard, self_draw, n=N // 5)
number_table, honour_table = nb.shanten_tables()
dealt16, dealt17 = dealt(N, 16), dealt(N // 10, 17)
best = np.zeros(N, dtype=np.int64)
figures["shanten_hand_ns"] = best_ns(shanten_loop, dealt16.concealed, dealt16.declared, number_table, honour_table,
                                     best)
after = np.zeros((N // 10, 34), dtype=np.int8)
useful, live_useful = np.zeros((N // 10, 34), dtype=np.int64), np.zeros((N // 10, 34), dtype=np.int16)
figures["discards_hand_ns"] = best_ns(discards_loop, dealt17.concealed, dealt17.declared, dealt17.win, number_table,
                                      honour_table, after, useful, live_useful, n=N // 10)
numba.set_num_threads(1)
analysis = discard_analysis(dealt17)
assert (shanten_batch(dealt16).shanten == best).all() and (analysis.shanten == after).all()
assert (analysis.useful == useful).all() and (analysis.live_useful == live_useful).all()
figures["shanten_batch_1_thread_ns"] = best_ns(lambda: shanten_batch(dealt16))
figures["discard_analysis_1_thread_ns"] = best_ns(lambda: discard_analysis(dealt17), n=N // 10)
result = score_batch(batch, rows=False)
waits = waits_batch(ready)
assert (result.payout == payout).all() and (wins == win_check(batch)).all()
assert (waits.mask == masks).all() and (waits.payout_discard == discard).all()
assert (waits.payout_self_draw == self_draw).all()
figures["score_batch_1_thread_ns"] = best_ns(lambda: score_batch(batch, rows=False, out=result))
figures["waits_batch_1_thread_ns"] = best_ns(lambda: waits_batch(ready), n=N // 5)
print(json.dumps(figures))
