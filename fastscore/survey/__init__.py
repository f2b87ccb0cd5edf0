"""Surveys: how often each row, shape and payout occurs over a space of winning hands.

:func:`survey` scores, under one win context and one rule table (optionally
a second table to compare), either every complete concealed standard hand
(:func:`fastscore.enumerate.enumerate_hands`, 118,856,487 count vectors) or
``sample`` random winning hands of :func:`fastscore.sample_winning`, and
tallies the results.

A sample.  Each sampled hand is scored once, on its own winning tile (the
sampler draws it uniformly from the hand's concealed tiles), with its own
self-draw, seat, round and flowers unless the survey fixes them, and counts
1 in both weightings: a sample's tallies are plain counts of sampled hands,
and its report shows one column.

The winning tile.  With ``win="uniform"`` the winning tile is drawn
uniformly from the hand's tiles: each hand is scored once per distinct kind
``k`` it holds (concealed tiles = the hand minus one ``k``, winning tile
``k``) with weight ``count_k / n`` (``n``: the hand's concealed tiles, 17
without declared sets).  With a given tile ``t`` only hands holding ``t``
are scored, once, with ``t`` as the winning tile.

Over the exhaustive space, two weightings, tallied side by side (index 0 and 1 of every tally array,
:data:`WEIGHTINGS`):

``unweighted``
    every hand (count vector, or sampled hand) counts once in all; with
    ``win="uniform"`` its weight is split over its kinds in proportion to
    their counts.
``weighted``
    every hand counts ``multiplicity = prod C(4, count)`` times, the number
    of distinct sets of physical tiles with that count vector: the
    distribution of a random 17-tile draw conditioned on being complete.
    With a given tile ``t`` the weight is ``multiplicity * count_t``, the
    number of (tile set, winning copy of ``t``) draws, which is what the
    uniform weighting gives restricted to ``t``.

Exactness.  Weights are integers, so every tally is a plain count: with
``win="uniform"`` over the exhaustive space a hand's unweighted weight is
:attr:`SurveyResult.unit` = 17, ``count_k`` of it to kind ``k`` (the tally
counts (hand, winning tile) pairs, each of the 17 tiles of a hand in turn
the winning one); with a given tile, or in a sample, a hand counts 1.  The
weighted tallies count (set of physical tiles, winning tile) draws.  Tallies
are int64 sums, so the numbers are the same for any thread count and chunk size.

Scoring goes through the scoring kernel's own code, hand by hand in a
numba kernel (:mod:`fastscore.kernels.survey`, no Python per hand): a hand's
interpretations are found once, and for each winning kind only the rows
that read the winning tile are evaluated again; the results are those of
:func:`fastscore.score_batch` on every (hand, winning kind), which the tests check.

Modules: :mod:`~fastscore.survey.tally` (the exact integer tallies and their
kernels, :class:`Tally`, :class:`SurveyPart`), :mod:`~fastscore.survey.run`
(options checked into a :class:`SurveyPlan`, hands enumerated or sampled in
chunks, scored and tallied: :func:`survey`,
:func:`survey_range`), :mod:`~fastscore.survey.result` (:class:`SurveyResult`),
:mod:`~fastscore.survey.report` (``report.md`` and ``survey.parquet``) and
:mod:`~fastscore.survey.plots` (the PNG plots; matplotlib, the optional
``report`` extra).
"""

from .plots import plot_compare, plot_payout, plot_rows
from .result import SurveyResult
from .run import DEFAULT_CHUNK_ROWS, SurveyPlan, plan_survey, survey, survey_range
from .tally import SHAPE_KEYS, WEIGHTINGS, SurveyPart, Tally

__all__ = [
    "WEIGHTINGS", "SHAPE_KEYS", "Tally", "SurveyResult", "SurveyPlan", "SurveyPart", "survey", "plan_survey",
    "survey_range", "plot_payout", "plot_rows", "plot_compare",
]
