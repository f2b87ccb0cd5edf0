"""Exact integer tallies of a survey: :class:`Tally`, the tally kernels, and :class:`SurveyPart`.

Every tally array's first axis is :data:`WEIGHTINGS` (see :mod:`fastscore.survey`
for what the two weightings mean).  Tallies are int64 sums, so they are the
same for any thread count, chunk size or cut of the space into parts, and
parts add up in any order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._jit import jit_parallel, prange
from ..rules import ROW_IDS, SHAPE_NAMES

__all__ = ["WEIGHTINGS", "SHAPE_KEYS", "PAYOUT_BINS", "Tally", "SurveyPart"]

#: The two weightings of every tally (first axis of its arrays).
WEIGHTINGS = ("unweighted", "weighted")
#: Keys of :attr:`Tally.shapes`: no interpretation, then the shapes of :class:`fastscore.Shape`.
SHAPE_KEYS = ("no_win",) + SHAPE_NAMES
#: Lower edges of the payout bins of the report's table and plots (the last bin is open): 0 alone
#: (below the round minimum), then ranges of growing width.
PAYOUT_BINS = (0, 1, 20, 25, 30, 40, 50, 60, 80, 100, 150, 200, 300)
#: Stripes of the tally kernel (fixed, so that the work split does not depend on the thread count).
_STRIPES = 64
#: Payout values tallied with a dense per-batch histogram (larger values take a slower path).
_DENSE_PAYOUT = 4096


@dataclass
class Tally:
    """Integer tallies of one rule table; every array's first axis is :data:`WEIGHTINGS`.

    Attributes
    ----------
    total : ndarray, shape (2,), int64
        Sum of the weights of every scoring (the denominator of every fraction).
    rows : ndarray, shape (2, R), int64
        Weight of the scorings in which each row of :data:`fastscore.ROW_IDS` scores (non-zero points).
    shapes : ndarray, shape (2, 5), int64
        Weight per best shape, keys :data:`SHAPE_KEYS`.
    chicken : ndarray, shape (2,), int64
        Weight of Chicken wins (LRC rules 6.2).
    illegal : ndarray, shape (2,), int64
        Weight of wins below the round minimum (not legal, payout 0; 6.3).
    payout : ndarray, shape (2, P), int64
        Weight per payout value 0 .. P-1 (points; 0 holds illegal wins and non-wins).
    """

    total: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    rows: np.ndarray = field(default_factory=lambda: np.zeros((2, len(ROW_IDS)), dtype=np.int64))
    shapes: np.ndarray = field(default_factory=lambda: np.zeros((2, len(SHAPE_KEYS)), dtype=np.int64))
    chicken: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    illegal: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    payout: np.ndarray = field(default_factory=lambda: np.zeros((2, 1), dtype=np.int64))

    def add_payout(self, values: np.ndarray, weights: np.ndarray) -> None:
        """Add ``weights (2, k)`` at payout ``values (k,)``, growing the histogram as needed."""
        if values.size == 0:
            return
        top = int(values.max()) + 1
        if top > self.payout.shape[1]:
            grown = np.zeros((2, top), dtype=np.int64)
            grown[:, : self.payout.shape[1]] = self.payout
            self.payout = grown
        np.add.at(self.payout, (slice(None), values), weights)

    def fraction(self, counts, weighted: bool = True):
        """``counts[w] / total[w]`` as float64 for one weighting ``w`` (``counts``: a tally array
        whose first axis is :data:`WEIGHTINGS`); 0 when nothing was scored."""
        w = int(weighted)
        denominator = int(self.total[w])
        part = np.asarray(counts)[w]
        return part / denominator if denominator else np.zeros(np.shape(part))

    def payout_bins(self) -> tuple[list[str], np.ndarray]:
        """The payout histogram in :data:`PAYOUT_BINS`: (labels such as ``"0"``, ``"20-24"``, ``"300+"``,
        ``(2, B) int64`` counts per weighting), every bin kept (empty ones too)."""
        top = self.payout.shape[1]
        edges = list(PAYOUT_BINS) + [max(top, PAYOUT_BINS[-1] + 1)]
        labels, counts = [], np.zeros((2, len(PAYOUT_BINS)), dtype=np.int64)
        for b, (lo, hi) in enumerate(zip(edges, edges[1:])):
            last = b == len(PAYOUT_BINS) - 1
            labels.append(f"{lo}+" if last else str(lo) if hi == lo + 1 else f"{lo}-{hi - 1}")
            counts[:, b] = self.payout[:, lo:hi].sum(axis=1)
        return labels, counts

    def mean_payout(self, weighted: bool = True, legal_only: bool = False) -> float:
        """Mean payout per scoring (or per legal win), computed exactly from the histogram."""
        w = int(weighted)
        hist = [int(v) for v in self.payout[w]]
        paid = sum(p * v for p, v in enumerate(hist))
        count = sum(hist[1:]) if legal_only else int(self.total[w])
        return paid / count if count else 0.0

    def merge(self, other: "Tally") -> None:
        """Add ``other``'s tallies into this one (exact: integer sums)."""
        self.total += other.total
        self.rows += other.rows
        self.shapes += other.shapes
        self.chicken += other.chicken
        self.illegal += other.illegal
        self.add_payout(np.arange(other.payout.shape[1]), other.payout)

    def equal(self, other: "Tally") -> bool:
        """Every tally identical (histograms compared up to trailing zeros)."""
        width = max(self.payout.shape[1], other.payout.shape[1])
        pad = [np.pad(t.payout, ((0, 0), (0, width - t.payout.shape[1]))) for t in (self, other)]
        return all(np.array_equal(getattr(self, k), getattr(other, k)) for k in ("total", "rows", "shapes", "chicken", "illegal")) \
            and np.array_equal(*pad)


@jit_parallel
def _payout_kernel(payout, w_unweighted, w_weighted, dense_top, payout_acc):
    """``payout_acc (stripes, 2, dense_top)`` += the weights of the scorings at each payout below ``dense_top``
    (a payout of -1: no win, not tallied; the caller tallies the larger ones)."""
    n = payout.shape[0]
    n_stripes = payout_acc.shape[0]
    step = (n + n_stripes - 1) // n_stripes
    for s in prange(n_stripes):
        for i in range(s * step, min(n, (s + 1) * step)):
            p = payout[i]
            if 0 <= p < dense_top:
                payout_acc[s, 0, p] += w_unweighted[i]
                payout_acc[s, 1, p] += w_weighted[i]


@jit_parallel
def _change_kernel(payout_a, payout_b, w_unweighted, w_weighted, acc):
    """``acc (stripes, 2, 3)`` += weight of scorings whose payout under b is lower / equal / higher than under a."""
    n = payout_a.shape[0]
    n_stripes = acc.shape[0]
    step = (n + n_stripes - 1) // n_stripes
    for s in prange(n_stripes):
        for i in range(s * step, min(n, (s + 1) * step)):
            k = 0 if payout_b[i] < payout_a[i] else (1 if payout_b[i] == payout_a[i] else 2)
            acc[s, 0, k] += w_unweighted[i]
            acc[s, 1, k] += w_weighted[i]


def add_payouts(tally: Tally, payout: np.ndarray, w_unweighted: np.ndarray, w_weighted: np.ndarray) -> None:
    """Add scorings' payouts (int64, -1 for no win) with their weights (int64) to ``tally``'s histogram."""
    if payout.size == 0:
        return
    top = int(payout.max()) + 1
    dense_top = min(top, _DENSE_PAYOUT)
    payout_acc = np.zeros((_STRIPES, 2, dense_top), dtype=np.int64)
    _payout_kernel(payout, w_unweighted, w_weighted, dense_top, payout_acc)
    tally.add_payout(np.arange(dense_top), payout_acc.sum(axis=0))
    if top > dense_top:  # a rule table with very large values: the rare big payouts, exactly
        big = np.flatnonzero(payout >= dense_top)
        tally.add_payout(payout[big], np.stack([w_unweighted[big], w_weighted[big]]))


class Accumulators:
    """Per-stripe tallies of one survey range, table 0 (the rules) and 1 (the compared table), that the
    survey kernel (:data:`fastscore.kernels.survey.survey_kernel`) adds to; :meth:`add_to` sums them."""

    def __init__(self) -> None:
        self.total = np.zeros((_STRIPES, 2, 2), dtype=np.int64)
        self.rows = np.zeros((_STRIPES, 2, 2, len(ROW_IDS)), dtype=np.int64)
        self.shapes = np.zeros((_STRIPES, 2, 2, len(SHAPE_KEYS)), dtype=np.int64)
        self.chicken = np.zeros((_STRIPES, 2, 2), dtype=np.int64)
        self.illegal = np.zeros((_STRIPES, 2, 2), dtype=np.int64)

    def arrays(self) -> tuple:
        return self.total, self.rows, self.shapes, self.chicken, self.illegal

    def add_to(self, tally: Tally, table: int) -> None:
        """Add table ``table``'s sums (all but the payout histogram) to ``tally``."""
        tally.total += self.total[:, table].sum(axis=0)
        tally.rows += self.rows[:, table].sum(axis=0)
        tally.shapes += self.shapes[:, table].sum(axis=0)
        tally.chicken += self.chicken[:, table].sum(axis=0)
        tally.illegal += self.illegal[:, table].sum(axis=0)


@dataclass
class SurveyPart:
    """Integer tallies of one range of a survey; parts add up (in any order) to the whole survey."""

    hands: int = 0
    scorings: int = 0
    multiplicity: int = 0
    tally: Tally = field(default_factory=Tally)
    compare: Tally | None = None
    change: np.ndarray = field(default_factory=lambda: np.zeros((2, 3), dtype=np.int64))

    def __iadd__(self, other: "SurveyPart") -> "SurveyPart":
        self.hands += other.hands
        self.scorings += other.scorings
        self.multiplicity += other.multiplicity
        self.tally.merge(other.tally)
        if other.compare is not None:
            if self.compare is None:
                self.compare = Tally()
            self.compare.merge(other.compare)
        self.change += other.change
        return self
