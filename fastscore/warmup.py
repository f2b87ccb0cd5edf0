"""Compile (or load from the cache) every kernel ahead of time: :func:`warmup`, ``fastscore warmup``."""

from __future__ import annotations

import time

import numpy as np

from ._jit import PARALLEL_MIN_ROWS
from .rules import resolve_rules

__all__ = ["warmup"]


def warmup(rules=None) -> float:
    """Load every kernel from the cache, or compile it where the cache has none (the first run).

    For cluster workers, CI images and benchmarks: after it, no call pays for
    compiling.  Covers the batch kernels, serial (small batches) and parallel
    (large ones): scoring, the win check, waits, the row check; the one-hand
    calls (:func:`fastscore.score`, :func:`fastscore.waits`, :func:`fastscore.shanten`) and
    :mod:`fastscore.nb`; shanten and discard analysis; the samplers; the survey's kernels; the layouts of
    the output columns (:mod:`fastscore.kernels.layout`).

    Parameters
    ----------
    rules : RuleTable, path or None
        The rule table (default the packaged one); kernels do not depend on it.

    Returns
    -------
    float
        Seconds taken (about a second from the cache; about 10 minutes compiling everything on 2 cores).
    """
    from . import nb
    from .checks import check_batch
    from .efficiency import discard_analysis, shanten, shanten_batch
    from .io.schemas import result_table
    from .sample import sample_ready, sample_winning
    from .score import score, score_batch, win_check
    from .survey import plan_survey
    from .survey.run import warm_up as warm_up_survey
    from .waits import waits, waits_batch

    start = time.perf_counter()
    table = resolve_rules(rules)
    wins, ready = sample_winning(1, seed=0), sample_ready(1, seed=0)
    sample_winning(PARALLEL_MIN_ROWS, seed=0)  # the sampler's parallel build (one hand runs the serial one)
    many = np.zeros(PARALLEL_MIN_ROWS, dtype=np.intp)  # big enough for the parallel builds
    for batch in (wins, wins.take(many)):
        scored = score_batch(batch, table)
        win_check(batch)
        check_batch(batch.take(slice(None)), require_win=True)
    for batch in (ready, ready.take(many)):
        waited = waits_batch(batch, table)
        shanten_batch(batch)
    for batch in (wins, wins.take(many)):
        discard_analysis(batch, rules=table)
    for rows in ("dense", "sparse"):  # the row points' layouts (int16), and the waits' (bool)
        result_table(scored, rows=rows)
    result_table(waited, "waits")
    shanten("11m99m77p11s9s EE RR 333p", "9s")
    score("11m99m77p11s9s EE RR 333p", "9s", self_drawn=True, seat="S", rules=table)
    waits("123m456p 11z 56s [777m] [999s]", seat="S", rules=table)
    suit_info, suit_entries, dec_words = nb.tables()
    row_points = np.zeros(nb.N_ROWS, dtype=np.int16)
    mask = np.zeros(34, dtype=np.bool_)
    payouts = np.zeros((2, 34), dtype=np.int32)
    scratch = nb.make_scratch()
    nb.win_check_hand(wins.concealed[0], wins.declared[0], int(wins.win[0]), suit_info, scratch)
    nb.score_hand(wins.concealed[0], wins.declared[0], int(wins.win[0]), False, 0, 0, 0, 0, False, table.packed,
                  suit_entries, dec_words, row_points, scratch)
    nb.waits_hand(ready.concealed[0], ready.declared[0], 0, 0, 0, 0, False, table.packed, suit_info, suit_entries,
                  dec_words, mask, payouts[0], payouts[1], scratch)
    number_table, honour_table = nb.shanten_tables()
    shanten_scratch = nb.make_shanten_scratch()
    nb.shanten_hand(wins.concealed[0], wins.declared[0], int(wins.win[0]), number_table, honour_table,
                    shanten_scratch)
    nb.discards_hand(wins.concealed[0], wins.declared[0], int(wins.win[0]), np.zeros(34, dtype=np.int16),
                     number_table, honour_table, shanten_scratch, np.zeros(34, dtype=np.int8),
                     np.zeros(34, dtype=np.int64), np.zeros(34, dtype=np.int16))
    warm_up_survey(plan_survey(suits="", rules=table))  # enumeration, the survey kernel, tallies
    return time.perf_counter() - start
