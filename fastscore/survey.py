"""Surveys: how often each row, shape and payout occurs over a space of winning hands.

:func:`survey` scores, under one win context and one rule table (optionally
a second table to compare), either every complete concealed standard hand
(:func:`fastscore.enumerate.enumerate_hands`, 118,856,487 count vectors) or
``sample`` random winning hands of :func:`fastscore.sample_winning`, and
tallies the results.

The winning tile.  With ``win="uniform"`` the winning tile is drawn
uniformly from the hand's tiles: each hand is scored once per distinct kind
``k`` it holds (concealed tiles = the hand minus one ``k``, winning tile
``k``) with weight ``count_k / n`` (``n``: the hand's concealed tiles, 17
without declared sets).  With a given tile ``t`` only hands holding ``t``
are scored, once, with ``t`` as the winning tile.

Two weightings, tallied side by side (index 0 and 1 of every tally array,
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
    uniform weighting gives restricted to ``t``.  Sampled hands have
    multiplicity 1.

Exactness.  Weights are integers: a hand's unweighted weight is
:attr:`SurveyResult.unit` (17 for the exhaustive uniform survey, 1 with a
given tile, 52,360 = lcm(17, 14, 11, 8, 5, 2) for a uniform sample, whose
hands hold 17 - 3 x declared concealed tiles), and a kind's share of it is
``unit * count_k / n``.  Tallies are int64 sums, so the numbers are the same
for any thread count and chunk size.

Scoring goes through :func:`fastscore.score_batch` on :class:`~fastscore.HandBatch`
chunks whose columns are filled by numba kernels (no Python per hand).
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ._jit import jit_parallel, prange
from .batch import HandBatch
from .enumerate import HAND_TILES, enumerate_hands, space_size
from .rules import ROW_IDS, SHAPE_NAMES, RuleTable, resolve_rules
from .score import score_batch
from .tiles import MAX_DECLARED, N_KINDS, TILE_NAMES, WINDS, ErrorCode, HandError, parse_flowers, parse_tile, parse_wind

__all__ = [
    "WEIGHTINGS", "SHAPE_KEYS", "Tally", "SurveyResult", "SurveyPlan", "SurveyPart", "survey", "plan_survey",
    "survey_range", "plot_payout", "plot_rows", "plot_compare",
]

#: The two weightings of every tally (first axis of its arrays).
WEIGHTINGS = ("unweighted", "weighted")
#: Keys of :attr:`Tally.shapes`: no interpretation, then the shapes of :class:`fastscore.Shape`.
SHAPE_KEYS = ("no_win",) + SHAPE_NAMES
#: Per-hand weight of a uniform sample: lcm of the concealed tile counts 17, 14, 11, 8, 5, 2.
SAMPLE_UNIT = math.lcm(*(HAND_TILES - 3 * d for d in range(MAX_DECLARED + 1)))
#: Stripes of the tally kernel (fixed, so that the work split does not depend on the thread count).
_STRIPES = 64
#: Payout values tallied with a dense per-batch histogram (larger values take a slower path).
_DENSE_PAYOUT = 4096
#: Hands per scoring batch of the survey (about 9 scorings per hand with ``win="uniform"``).
DEFAULT_CHUNK_ROWS = 1 << 16


# --------------------------------------------------------------------------- tallies


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
        Weight of Chicken wins (RULES.md 6.2).
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
def _tally_kernel(payout, is_win, legal, chicken, shape, row_points, w_unweighted, w_weighted, dense_top,
                  total_acc, rows_acc, shapes_acc, chicken_acc, illegal_acc, payout_acc):
    """Add one scored batch to per-stripe accumulators (``*_acc`` have a leading stripe axis).

    Payouts below ``dense_top`` go to ``payout_acc``; the caller tallies the others.
    Integer sums: the result does not depend on how stripes map to threads.
    """
    n = payout.shape[0]
    n_stripes = total_acc.shape[0]
    n_rows = row_points.shape[1]
    step = (n + n_stripes - 1) // n_stripes
    for s in prange(n_stripes):
        rows_u = np.zeros(n_rows, dtype=np.int64)  # contiguous local sums: the row loop vectorises
        rows_w = np.zeros(n_rows, dtype=np.int64)
        for i in range(s * step, min(n, (s + 1) * step)):
            wu = w_unweighted[i]
            ww = w_weighted[i]
            total_acc[s, 0] += wu
            total_acc[s, 1] += ww
            k = shape[i] + 1
            shapes_acc[s, 0, k] += wu
            shapes_acc[s, 1, k] += ww
            if not is_win[i]:
                continue
            if chicken[i]:
                chicken_acc[s, 0] += wu
                chicken_acc[s, 1] += ww
            if not legal[i]:
                illegal_acc[s, 0] += wu
                illegal_acc[s, 1] += ww
            p = payout[i]
            if p < dense_top:
                payout_acc[s, 0, p] += wu
                payout_acc[s, 1, p] += ww
            points = row_points[i]
            for r in range(n_rows):
                fired = np.int64(points[r] != 0)  # branch-free: most rows are 0
                rows_u[r] += wu * fired
                rows_w[r] += ww * fired
        for r in range(n_rows):
            rows_acc[s, 0, r] = rows_u[r]
            rows_acc[s, 1, r] = rows_w[r]


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


def _tally(tally: Tally, result, w_unweighted: np.ndarray, w_weighted: np.ndarray) -> None:
    """Add one :class:`~fastscore.BatchResult` to ``tally`` (weights as int64 arrays)."""
    n = len(result)
    if n == 0:
        return
    top = int(result.payout.max()) + 1
    dense_top = min(top, _DENSE_PAYOUT)
    total_acc = np.zeros((_STRIPES, 2), dtype=np.int64)
    rows_acc = np.zeros((_STRIPES, 2, len(ROW_IDS)), dtype=np.int64)
    shapes_acc = np.zeros((_STRIPES, 2, len(SHAPE_KEYS)), dtype=np.int64)
    chicken_acc = np.zeros((_STRIPES, 2), dtype=np.int64)
    illegal_acc = np.zeros((_STRIPES, 2), dtype=np.int64)
    payout_acc = np.zeros((_STRIPES, 2, dense_top), dtype=np.int64)
    _tally_kernel(result.payout, result.is_win, result.legal, result.chicken, result.shape, result.row_points,
                  w_unweighted, w_weighted, dense_top, total_acc, rows_acc, shapes_acc, chicken_acc, illegal_acc,
                  payout_acc)
    tally.total += total_acc.sum(axis=0)
    tally.rows += rows_acc.sum(axis=0)
    tally.shapes += shapes_acc.sum(axis=0)
    tally.chicken += chicken_acc.sum(axis=0)
    tally.illegal += illegal_acc.sum(axis=0)
    tally.add_payout(np.arange(dense_top), payout_acc.sum(axis=0))
    if top > dense_top:  # a rule table with very large values: the rare big payouts, exactly
        big = np.flatnonzero(result.is_win & (result.payout >= dense_top))
        tally.add_payout(result.payout[big].astype(np.int64), np.stack([w_unweighted[big], w_weighted[big]]))


# --------------------------------------------------------------------------- expanding hands into scorings


@jit_parallel
def _count_scorings(full, win_tile, n_scorings):
    """Scorings per hand: its distinct kinds (``win_tile`` -1) or 1 if it holds ``win_tile``."""
    for i in prange(full.shape[0]):
        if win_tile >= 0:
            n_scorings[i] = 1 if full[i, win_tile] > 0 else 0
        else:
            k = 0
            for t in range(full.shape[1]):
                if full[i, t] > 0:
                    k += 1
            n_scorings[i] = k


@jit_parallel
def _expand(full, multiplicity, share, win_tile, offsets, concealed, win, w_unweighted, w_weighted, source):
    """Fill one scoring row per (hand, winning kind); row ``offsets[i] + k`` is hand i's k-th kind.

    ``full``: each hand's concealed tiles with the winning tile.  Uniform
    (``win_tile`` -1): weight ``share[i] * count`` unweighted and that times
    ``multiplicity[i]`` weighted.  Given tile: weight 1 unweighted and
    ``multiplicity[i] * count`` weighted.
    """
    n_kinds = full.shape[1]
    for i in prange(full.shape[0]):
        j = offsets[i]
        for t in range(n_kinds):
            c = full[i, t]
            if c == 0 or (win_tile >= 0 and t != win_tile):
                continue
            for u in range(n_kinds):
                concealed[j, u] = full[i, u]
            concealed[j, t] = c - 1
            win[j] = t
            if win_tile >= 0:
                w_unweighted[j] = 1
                w_weighted[j] = multiplicity[i] * c
            else:
                w_unweighted[j] = share[i] * c
                w_weighted[j] = multiplicity[i] * share[i] * c
            source[j] = i
            j += 1


@dataclass(frozen=True)
class _Context:
    self_drawn: bool
    seat: int
    round: int
    flowers: int
    win_tile: int  # -1: uniform


class _Scorings:
    """Reusable columns of the scoring batches of one survey (no fresh pages per chunk).

    The context columns are constant for a survey and filled once; the
    kernels overwrite the hand columns of each batch.
    """

    def __init__(self, ctx: _Context):
        self.ctx = ctx
        self.capacity = 0
        self._grow(1)

    def _grow(self, m: int) -> None:
        m = max(m, 2 * self.capacity)
        ctx = self.ctx
        self.columns = dict(
            concealed=np.empty((m, N_KINDS), dtype=np.uint8),
            declared=np.zeros((m, MAX_DECLARED, 2), dtype=np.int8),
            win=np.empty(m, dtype=np.int8),
            self_drawn=np.full(m, ctx.self_drawn, dtype=np.bool_),
            seat=np.full(m, ctx.seat, dtype=np.uint8),
            round=np.full(m, ctx.round, dtype=np.uint8),
            flowers=np.full(m, ctx.flowers, dtype=np.uint8),
            streak=np.zeros(m, dtype=np.int32),
            closing=np.zeros(m, dtype=np.bool_),
            error=np.zeros(m, dtype=np.uint8),
        )
        self.w_unweighted = np.empty(m, dtype=np.int64)
        self.w_weighted = np.empty(m, dtype=np.int64)
        self.source = np.empty(m, dtype=np.int64)
        self.capacity = m

    def batch(self, full, multiplicity, share, declared) -> tuple[HandBatch, np.ndarray, np.ndarray]:
        """The scoring batch of some hands (views into the reused columns) and its two weight columns."""
        n = full.shape[0]
        counts = np.empty(n, dtype=np.int64)
        _count_scorings(full, self.ctx.win_tile, counts)
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        m = int(offsets[-1])
        if m > self.capacity:
            self._grow(m)
        batch = HandBatch(**{name: column[:m] for name, column in self.columns.items()})
        w_unweighted, w_weighted, source = self.w_unweighted[:m], self.w_weighted[:m], self.source[:m]
        _expand(full, multiplicity, share, self.ctx.win_tile, offsets, batch.concealed, batch.win, w_unweighted,
                w_weighted, source)
        if declared is not None:
            batch.declared[:] = declared[source]
        return batch, w_unweighted, w_weighted


# --------------------------------------------------------------------------- the result


@dataclass
class SurveyResult:
    """What :func:`survey` found.

    Attributes
    ----------
    context : dict
        The survey's parameters (win context, space or sample, rule table paths).
    hands : int
        Hands surveyed (count vectors, or sampled hands); with a given winning tile,
        only those holding it.
    scorings : int
        Hands scored (with ``win="uniform"``, one per hand and distinct kind).
    unit : int
        Unweighted weight of one hand (see the module docstring).
    multiplicity : int
        Sum of the hands' multiplicities.
    tally : Tally
        Tallies under ``rules``.
    compare : Tally or None
        Tallies under the ``compare`` table.
    payout_change : ndarray, shape (2, 3), int64, or None
        Weight of scorings whose payout under ``compare`` is lower, equal, higher than under ``rules``.
    seconds : float
        Wall time of the survey, after the kernels are compiled or loaded.
    """

    context: dict
    hands: int
    scorings: int
    unit: int
    multiplicity: int
    tally: Tally
    compare: Tally | None = None
    payout_change: np.ndarray | None = None
    seconds: float = 0.0

    def row_frequency(self, weighted: bool = True, table: str = "rules") -> dict[str, float]:
        """Row id -> fraction of the (weighted) scorings in which it scores, in :data:`ROW_IDS` order."""
        tally = self._table(table)
        return dict(zip(ROW_IDS, tally.fraction(tally.rows, weighted).tolist()))

    def top_rows(self, k: int = 10, weighted: bool = True, table: str = "rules") -> list[tuple[str, float]]:
        """The ``k`` rows that score most often (ties in :data:`ROW_IDS` order), with their fractions."""
        tally = self._table(table)
        w = int(weighted)
        order = np.argsort(-tally.rows[w], kind="stable")[:k]
        freq = tally.fraction(tally.rows, weighted)
        return [(ROW_IDS[r], float(freq[r])) for r in order if tally.rows[w, r]]

    def chicken_fraction(self, weighted: bool = True, table: str = "rules") -> float:
        tally = self._table(table)
        return float(tally.fraction(tally.chicken, weighted))

    def illegal_fraction(self, weighted: bool = True, table: str = "rules") -> float:
        """Fraction of wins below the round minimum (payout 0)."""
        tally = self._table(table)
        return float(tally.fraction(tally.illegal, weighted))

    def shape_fraction(self, weighted: bool = True, table: str = "rules") -> dict[str, float]:
        tally = self._table(table)
        return dict(zip(SHAPE_KEYS, tally.fraction(tally.shapes, weighted).tolist()))

    def payout_distribution(self, weighted: bool = True, table: str = "rules") -> np.ndarray:
        """``(P,) float64``: fraction of scorings per payout value 0 .. P-1."""
        tally = self._table(table)
        return tally.fraction(tally.payout, weighted)

    def _table(self, table: str) -> Tally:
        if table == "rules":
            return self.tally
        if table == "compare" and self.compare is not None:
            return self.compare
        known = "'rules' or 'compare'" if self.compare is not None else "'rules' (no table was compared)"
        raise ValueError(f"table must be {known}, got {table!r}")

    # ----------------------------------------------------------------------- output

    def to_parquet(self, path) -> Path:
        """Write every tally as one long table (pyarrow), the context in the schema metadata.

        Columns: ``table`` (``rules`` / ``compare`` / ``change``), ``statistic``
        (``total``, ``row``, ``shape``, ``chicken``, ``illegal``, ``payout``,
        ``payout_change``), ``key`` (row id, shape name, payout value as text,
        ``lower``/``equal``/``higher``, or empty), ``unweighted`` and
        ``weighted`` (int64 exact tallies), ``unweighted_fraction`` and
        ``weighted_fraction`` (float64, tally / total).  Metadata key
        ``fastscore.survey`` holds the JSON of :attr:`context` plus hands,
        scorings, unit, multiplicity and seconds.
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        records: list[tuple] = []

        def add(table: str, tally: Tally, statistic: str, key: str, values) -> None:
            u, w = int(values[0]), int(values[1])
            tu, tw = int(tally.total[0]), int(tally.total[1])
            records.append((table, statistic, key, u, w, u / tu if tu else 0.0, w / tw if tw else 0.0))

        tables = [("rules", self.tally)] + ([("compare", self.compare)] if self.compare is not None else [])
        for name, tally in tables:
            add(name, tally, "total", "", tally.total)
            for r, rid in enumerate(ROW_IDS):
                add(name, tally, "row", rid, tally.rows[:, r])
            for s, key in enumerate(SHAPE_KEYS):
                add(name, tally, "shape", key, tally.shapes[:, s])
            add(name, tally, "chicken", "", tally.chicken)
            add(name, tally, "illegal", "", tally.illegal)
            for p in np.flatnonzero(tally.payout.any(axis=0)):
                add(name, tally, "payout", str(int(p)), tally.payout[:, p])
        if self.payout_change is not None:
            for k, key in enumerate(("lower", "equal", "higher")):
                add("change", self.tally, "payout_change", key, self.payout_change[:, k])
        columns = list(zip(*records))
        schema = pa.schema([
            ("table", pa.string()), ("statistic", pa.string()), ("key", pa.string()),
            ("unweighted", pa.int64()), ("weighted", pa.int64()),
            ("unweighted_fraction", pa.float64()), ("weighted_fraction", pa.float64()),
        ], metadata={"fastscore.survey": json.dumps(self._meta())})
        table = pa.Table.from_arrays([pa.array(c, type=f.type) for c, f in zip(columns, schema)], schema=schema)
        path = Path(path)
        pq.write_table(table, path)
        return path

    def _meta(self) -> dict:
        return {**self.context, "hands": self.hands, "scorings": self.scorings, "unit": self.unit,
                "multiplicity": self.multiplicity, "seconds": round(self.seconds, 3)}

    def report(self, folder) -> Path:
        """Write ``report.md`` with PNG plots (and ``survey.parquet``) into ``folder``; returns the page's path.

        Plots: ``payout.png`` (:func:`plot_payout`), ``rows.png``
        (:func:`plot_rows`) and, with a compared table, ``compare.png``
        (:func:`plot_compare`).
        """
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        plots = {"payout.png": plot_payout, "rows.png": plot_rows}
        if self.compare is not None:
            plots["compare.png"] = plot_compare
        for name, plot in plots.items():
            plot(self).savefig(folder / name, dpi=110)
        self.to_parquet(folder / "survey.parquet")
        page = folder / "report.md"
        page.write_text(self._markdown(), encoding="utf-8")
        return page

    def _markdown(self) -> str:
        ctx = self.context
        t = self.tally
        lines = [
            "# fastscore survey",
            "",
            f"- space: {_space_line(ctx)}",
            f"- win context: {_context_text(ctx)}",
            f"- rule table: `{ctx['rules']}`" + (f"; compared with `{ctx['compare']}`" if ctx.get("compare") else ""),
            f"- hands: {self.hands:,}; scorings: {self.scorings:,}; total multiplicity: {self.multiplicity:,}",
            f"- wall time: {self.seconds:.1f} s",
            "",
            "Unweighted: every hand counts once. Weighted: every hand counts by its multiplicity "
            "(the number of distinct sets of physical tiles it stands for). "
            + ("The winning tile is drawn uniformly from the hand's tiles."
               if ctx["win"] == "uniform" else f"The winning tile is {ctx['win']}."),
            "",
            "## Summary",
            "",
            "| | unweighted | weighted |",
            "|---|---:|---:|",
            f"| Chicken | {_pct(self.chicken_fraction(False))} | {_pct(self.chicken_fraction(True))} |",
            f"| below the minimum (payout 0) | {_pct(self.illegal_fraction(False))} | {_pct(self.illegal_fraction(True))} |",
            f"| mean payout | {t.mean_payout(False):.2f} | {t.mean_payout(True):.2f} |",
            f"| mean payout of a legal win | {t.mean_payout(False, True):.2f} | {t.mean_payout(True, True):.2f} |",
        ]
        for key, u, w in zip(SHAPE_KEYS, self.shape_fraction(False).values(), self.shape_fraction(True).values()):
            if u or w:
                lines.append(f"| shape {key} | {_pct(u)} | {_pct(w)} |")
        lines += ["", "## Rows", "", "![row frequency](rows.png)", "",
                  "| row | unweighted | weighted |", "|---|---:|---:|"]
        unweighted = self.row_frequency(False)
        for rid, freq in self.top_rows(len(ROW_IDS)):
            lines.append(f"| `{rid}` | {_pct(unweighted[rid])} | {_pct(freq)} |")
        lines += ["", "## Payout", "", "![payout distribution](payout.png)", "",
                  "| payout | unweighted | weighted |", "|---:|---:|---:|"]
        pu, pw = self.payout_distribution(False), self.payout_distribution(True)
        for p in np.flatnonzero(t.payout.any(axis=0)):
            lines.append(f"| {p} | {_pct(pu[p])} | {_pct(pw[p])} |")
        if self.compare is not None:
            c = self.compare
            change = self.payout_change
            lines += ["", "## Comparison", "", "![comparison](compare.png)", "",
                      f"Rules `{ctx['rules']}` against `{ctx['compare']}` (weighted).", "",
                      "| | rules | compare |", "|---|---:|---:|",
                      f"| Chicken | {_pct(self.chicken_fraction())} | {_pct(self.chicken_fraction(table='compare'))} |",
                      f"| below the minimum | {_pct(self.illegal_fraction())} | "
                      f"{_pct(self.illegal_fraction(table='compare'))} |",
                      f"| mean payout | {t.mean_payout():.2f} | {c.mean_payout():.2f} |"]
            freq_c = self.row_frequency(table="compare")
            for rid, freq in self.row_frequency().items():
                if freq != freq_c[rid]:
                    lines.append(f"| `{rid}` | {_pct(freq)} | {_pct(freq_c[rid])} |")
            total = int(change[1].sum())
            lines += ["", "Payout under the compared table, weighted: "
                      + ", ".join(f"{name} {_pct(int(v) / total if total else 0.0)}"
                                  for name, v in zip(("lower", "equal", "higher"), change[1]))]
        lines += ["", "All tallies are in `survey.parquet` (exact integer counts and fractions).", ""]
        return "\n".join(lines)


def _pct(x: float) -> str:
    if x == 0:
        return "0"
    return f"{100 * x:.3f}%" if x >= 1e-3 else f"{100 * x:.2e}%"


def _space_line(ctx: dict) -> str:
    if ctx.get("sample"):
        return f"{ctx['sample']:,} random winning hands (sample_winning, seed {ctx['seed']})"
    parts = [f"complete concealed standard hands, number suits '{ctx['suits']}'",
             "honours" if ctx["honours"] else "no honours"]
    if ctx.get("fixed"):
        parts.append(f"holding {ctx['fixed']}")
    return ", ".join(parts)


def _context_text(ctx: dict) -> str:
    how = "self-drawn" if ctx["self_drawn"] else "on a discard"
    return (f"win {ctx['win']} {how}, seat {ctx['seat']}, round {ctx['round']}, "
            f"flowers {ctx['flowers'] or 'none'}")


# --------------------------------------------------------------------------- plots


def _figure(width: float = 8.0, height: float = 4.5):
    """A figure on the Agg canvas (no pyplot state, no display needed)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _title_context(result: SurveyResult) -> str:
    ctx = result.context
    return f"win {ctx['win']}, {'self-drawn' if ctx['self_drawn'] else 'discard'}, seat {ctx['seat']}, round {ctx['round']}"


def _log_scale(ax, axis: str, has_data: bool) -> None:
    """Log scale on ``axis`` ("x" or "y"), or a note on an empty plot (a log axis needs positive data)."""
    if has_data:
        (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
    else:
        ax.text(0.5, 0.5, "no hands in this space", transform=ax.transAxes, ha="center", va="center")


def _payout_bars(ax, tally: Tally, label: str, offset: float, width: float, color) -> None:
    for w, (name, alpha) in enumerate((("unweighted", 0.45), ("weighted", 0.95))):
        dist = tally.fraction(tally.payout, bool(w))
        values = np.flatnonzero(dist)
        ax.bar(values + offset + (w - 0.5) * width, dist[values], width=width, alpha=alpha, color=color,
               label=f"{label}{name}")


def plot_payout(result: SurveyResult):
    """Payout histogram (share of scorings per payout value, both weightings); returns the Figure."""
    fig = _figure()
    ax = fig.add_subplot()
    _payout_bars(ax, result.tally, "", 0.0, 0.42, "tab:blue")
    _log_scale(ax, "y", bool(result.tally.total[0]))
    ax.set_xlabel("payout (points; 0 = below the round minimum)")
    ax.set_ylabel("share of scorings (log scale)")
    ax.set_title(f"Payout distribution ({_title_context(result)})")
    ax.legend()
    return fig


def plot_rows(result: SurveyResult, table: str = "rules"):
    """Horizontal bars: share of scorings in which each row scores, both weightings; returns the Figure."""
    rows = [rid for rid, _ in result.top_rows(len(ROW_IDS), table=table)]
    fig = _figure(8.0, max(3.0, 0.28 * len(rows) + 1.2))
    ax = fig.add_subplot()
    y = np.arange(len(rows))
    for w, name in enumerate(WEIGHTINGS):
        freq = result.row_frequency(bool(w), table=table)
        ax.barh(y + (0.2 if w == 0 else -0.2), [freq[r] for r in rows], height=0.4, label=name)
    ax.set_yticks(y, rows, fontsize=8)
    ax.invert_yaxis()
    _log_scale(ax, "x", bool(rows))
    ax.set_xlabel("share of scorings in which the row scores (log scale)")
    ax.set_ylabel("row")
    ax.set_title(f"Row frequency ({_title_context(result)})")
    ax.legend()
    return fig


def plot_compare(result: SurveyResult):
    """Two panels (weighted): payout distributions and row frequencies under both tables; returns the Figure."""
    if result.compare is None:
        raise ValueError("this survey has no compared rule table (survey(..., compare=...))")
    ctx = result.context
    names = (Path(str(ctx["rules"])).name, Path(str(ctx["compare"])).name)
    if names[0] == names[1]:
        names = ("rules", "compare")
    fig = _figure(12.0, 6.0)
    left, right = fig.subplots(1, 2)
    for k, (tally, color) in enumerate(((result.tally, "tab:blue"), (result.compare, "tab:orange"))):
        dist = tally.fraction(tally.payout, True)
        values = np.flatnonzero(dist)
        left.bar(values + (k - 0.5) * 0.42, dist[values], width=0.42, color=color, label=names[k])
    _log_scale(left, "y", bool(result.tally.total[0]))
    left.set_xlabel("payout (points; 0 = below the round minimum)")
    left.set_ylabel("share of scorings, weighted (log scale)")
    left.set_title("Payout distribution")
    left.legend()
    a, b = result.row_frequency(), result.row_frequency(table="compare")
    rows = [r for r in ROW_IDS if a[r] or b[r]]
    rows.sort(key=lambda r: -max(a[r], b[r]))
    y = np.arange(len(rows))
    right.barh(y - 0.2, [a[r] for r in rows], height=0.4, color="tab:blue", label=names[0])
    right.barh(y + 0.2, [b[r] for r in rows], height=0.4, color="tab:orange", label=names[1])
    right.set_yticks(y, rows, fontsize=7)
    right.invert_yaxis()
    _log_scale(right, "x", bool(rows))
    right.set_xlabel("share of scorings in which the row scores, weighted (log scale)")
    right.set_ylabel("row")
    right.set_title("Row frequency")
    right.legend()
    fig.suptitle(f"{names[0]} vs {names[1]} ({_title_context(result)})")
    return fig


# --------------------------------------------------------------------------- the survey


def _win_tile(win) -> int:
    if isinstance(win, str) and win.strip().lower() == "uniform":
        return -1
    if isinstance(win, (int, np.integer)) and not isinstance(win, bool) and 0 <= win < N_KINDS:
        return int(win)
    if isinstance(win, str):
        if win.strip().endswith("f"):
            raise HandError(ErrorCode.BAD_WIN, f"win {win!r} is a flower; flowers never complete a hand")
        try:
            return parse_tile(win)
        except HandError as exc:
            raise HandError(ErrorCode.BAD_WIN, f"win must be 'uniform' or a tile: {exc}") from None
    raise HandError(ErrorCode.BAD_WIN, f"win must be 'uniform' or a tile such as '9s', got {win!r}")


def _fixed_text(fixed) -> str:
    from .tiles import format_counts

    return format_counts(np.asarray(fixed)) if fixed is not None else ""


def survey(
    *,
    self_drawn: bool = False,
    seat="E",
    round="E",
    flowers: str = "",
    win="uniform",
    rules=None,
    compare=None,
    sample: int | None = None,
    seed: int = 0,
    suits: str = "mps",
    honours: bool = True,
    fixed=None,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    progress: bool = True,
) -> SurveyResult:
    """Tally rows, shapes, Chicken, illegal wins and payouts over a space of winning hands.

    Parameters
    ----------
    self_drawn : bool
        Every win self-drawn (default: on a discard).
    seat, round : str
        ``"E" "S" "W" "N"``.
    flowers : str
        Flowers and seasons held, e.g. ``"1f5f"``.
    win : "uniform" or str
        ``"uniform"``: the winning tile is drawn uniformly from the hand's
        tiles (each distinct kind scored, weighted by its count); a tile such
        as ``"9s"``: only hands holding it, won on it.
    rules, compare : RuleTable, path or None
        The rule table (default the packaged one) and an optional second
        table; with ``compare`` every scoring is made under both.
    sample : int, optional
        Instead of the exhaustive space, ``sample_winning(sample, seed)``
        hands (declared sets and special shapes included); their own context
        columns are replaced by this survey's (streak 0, no Closing).
    seed : int
        Seed of ``sample``.
    suits, honours, fixed
        Restrict the exhaustive space (see :func:`fastscore.enumerate.enumerate_hands`).
    chunk_rows : int
        Hands per scoring batch; the result does not depend on it.  Memory is
        about 2 kB per hand with ``win="uniform"`` (about 9 scorings each):
        some 130 MB at the default 65,536, twice the score columns with ``compare``.
    progress : bool
        A tqdm bar on stderr with the time left.

    Returns
    -------
    SurveyResult

    Raises
    ------
    ValueError
        A bad context value, winning tile, space option, rule table, or
        ``sample`` combined with space options.

    Examples
    --------
    >>> result = survey(suits="", progress=False)     # the 42 all-honours hands
    >>> result.hands, result.row_frequency()["all_honours"]
    (42, 1.0)
    """
    plan = plan_survey(self_drawn=self_drawn, seat=seat, round=round, flowers=flowers, win=win, rules=rules,
                       compare=compare, sample=sample, seed=seed, suits=suits, honours=honours, fixed=fixed,
                       chunk_rows=chunk_rows)
    from tqdm import tqdm

    scorings = _Scorings(plan.ctx)
    _warm_up(scorings, plan.table, plan.other)
    start = time.perf_counter()
    with tqdm(total=plan.size, unit=" hands", unit_scale=True, disable=not progress, file=sys.stderr,
              dynamic_ncols=True, desc="survey") as bar:
        part = survey_range(plan, 0, plan.size, on_chunk=bar.update, _scorings=scorings)
    return plan.result(part, time.perf_counter() - start)


@dataclass(frozen=True)
class SurveyPlan:
    """A checked survey: everything :func:`survey_range` needs, picklable (it travels with Dask tasks).

    Made by :func:`plan_survey`.  ``size`` is the number of source rows
    (hands of the space, or sampled hands) that ranges ``start .. stop`` index.
    """

    ctx: _Context
    table: RuleTable
    other: RuleTable | None
    unit: int
    size: int
    context: dict
    sample: int | None
    seed: int
    suits: str
    honours: bool
    fixed: np.ndarray | None
    chunk_rows: int

    def result(self, part: "SurveyPart", seconds: float = 0.0) -> SurveyResult:
        """The :class:`SurveyResult` of the whole plan from the sum of its range parts."""
        return SurveyResult(self.context, part.hands, part.scorings, self.unit, part.multiplicity, part.tally,
                            part.compare, part.change if self.other is not None else None, seconds)


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


def plan_survey(
    *,
    self_drawn: bool = False,
    seat="E",
    round="E",
    flowers: str = "",
    win="uniform",
    rules=None,
    compare=None,
    sample: int | None = None,
    seed: int = 0,
    suits: str = "mps",
    honours: bool = True,
    fixed=None,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
) -> SurveyPlan:
    """Check the options of :func:`survey` (same parameters, same errors) and load the rule tables."""
    win_tile = _win_tile(win)
    ctx = _Context(bool(self_drawn), parse_wind(seat, "seat"), parse_wind(round, "round"),
                   sum(1 << (n - 1) for n in parse_flowers(flowers)), win_tile)
    table: RuleTable = resolve_rules(rules)
    other: RuleTable | None = resolve_rules(compare) if compare is not None else None
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    context = {
        "self_drawn": ctx.self_drawn, "seat": WINDS[ctx.seat], "round": WINDS[ctx.round],
        "flowers": "".join(f"{n}f" for n in parse_flowers(flowers)),
        "win": "uniform" if win_tile < 0 else TILE_NAMES[win_tile],
        "rules": table.path, "compare": other.path if other is not None else None,
        "sample": sample, "seed": seed if sample is not None else None,
        "suits": suits, "honours": bool(honours), "fixed": _fixed_text(fixed),
    }
    if sample is not None:
        if isinstance(sample, bool) or not isinstance(sample, (int, np.integer)) or sample < 1:
            raise ValueError(f"sample must be a positive number of hands, got {sample!r}")
        if suits != "mps" or not honours or fixed is not None:
            raise ValueError("sample= draws from sample_winning; suits, honours and fixed restrict only the exhaustive space")
        unit = SAMPLE_UNIT if win_tile < 0 else 1
        size = int(sample)
    else:
        unit = HAND_TILES if win_tile < 0 else 1
        size = space_size(suits=suits, honours=honours, fixed=fixed)
    return SurveyPlan(ctx, table, other, unit, size, context, None if sample is None else int(sample), int(seed),
                      suits, bool(honours), None if fixed is None else np.asarray(fixed), int(chunk_rows))


def survey_range(plan: SurveyPlan, start: int, stop: int, *, on_chunk=None, _scorings=None) -> SurveyPart:
    """Score and tally source rows ``start .. stop - 1`` of ``plan`` (hands of the space or of the sample).

    The exact integer tallies of disjoint ranges add up to those of their
    union, whatever the cut, chunk size or thread count: :func:`survey` runs
    one range over everything, :func:`fastscore.dask.survey` one task per range.

    Parameters
    ----------
    plan : SurveyPlan
    start, stop : int
        ``0 <= start <= stop <= plan.size``.
    on_chunk : callable, optional
        Called with the number of source rows of each chunk done (a progress bar's ``update``).

    Returns
    -------
    SurveyPart
    """
    if not 0 <= start <= stop <= plan.size:
        raise ValueError(f"range {start} .. {stop} is not inside 0 .. {plan.size}")
    ctx, win_tile = plan.ctx, plan.ctx.win_tile
    part = SurveyPart(compare=Tally() if plan.other is not None else None)
    change_acc = np.zeros((_STRIPES, 2, 3), dtype=np.int64)
    scorings = _scorings if _scorings is not None else _Scorings(ctx)
    if plan.sample is not None:
        chunks = _sample_chunks(plan.seed, start, stop, plan.chunk_rows)
    else:
        chunks = _space_chunks(plan.suits, plan.honours, plan.fixed, start, stop, plan.chunk_rows)
    for full, multiplicity, declared in chunks:
        n_concealed = full.sum(axis=1, dtype=np.int64)
        share = plan.unit // n_concealed if win_tile < 0 else np.ones(len(full), dtype=np.int64)
        batch, w_unweighted, w_weighted = scorings.batch(full, multiplicity, share, declared)
        held = full[:, win_tile] > 0 if win_tile >= 0 else slice(None)
        part.hands += len(full) if win_tile < 0 else int(held.sum())
        part.multiplicity += int(multiplicity[held].sum())
        part.scorings += len(batch)
        scored = score_batch(batch, plan.table)
        _tally(part.tally, scored, w_unweighted, w_weighted)
        if plan.other is not None:
            scored_other = score_batch(batch, plan.other)
            _tally(part.compare, scored_other, w_unweighted, w_weighted)
            _change_kernel(scored.payout, scored_other.payout, w_unweighted, w_weighted, change_acc)
        if on_chunk is not None:
            on_chunk(len(full))
    part.change = change_acc.sum(axis=0)
    return part


def _warm_up(scorings: _Scorings, table: RuleTable, other: RuleTable | None) -> None:
    """Compile (or load from the cache) every kernel on a small batch, so that the timing and
    the progress bar's time left measure the survey itself."""
    hands, multiplicity = next(enumerate_hands(suits="", chunk_rows=64))
    hands, multiplicity = np.tile(hands, (6, 1)), np.tile(multiplicity, 6)  # 252 hands, 1,512 scorings
    share = np.ones(len(hands), dtype=np.int64)
    batch, w_unweighted, w_weighted = scorings.batch(hands, multiplicity, share, None)
    for rules in (table, other) if other is not None else (table,):
        scored = score_batch(batch, rules)
        _tally(Tally(), scored, w_unweighted, w_weighted)
        score_batch(batch.take(slice(0, 8)), rules)
    _change_kernel(scored.payout, scored.payout, w_unweighted, w_weighted, np.zeros((_STRIPES, 2, 3), dtype=np.int64))


def _space_chunks(suits, honours, fixed, start, stop, chunk_rows):
    for hands, multiplicity in enumerate_hands(suits=suits, honours=honours, fixed=fixed, chunk_rows=chunk_rows,
                                               start=start, stop=stop):
        yield hands, multiplicity, None


def _sample_chunks(seed: int, start: int, stop: int, chunk_rows: int):
    """Hands ``start .. stop - 1`` of ``sample_winning(.., seed)`` in chunks: (concealed + winning tile,
    multiplicity 1, declared).  Hand i depends only on (seed, i), so chunks and ranges cut anywhere."""
    from .sample import sample_winning

    for first in range(start, stop, chunk_rows):
        k = min(chunk_rows, stop - first)
        batch = sample_winning(k, seed, start=first)
        full = batch.concealed.copy()
        full[np.arange(k), batch.win.astype(np.int64)] += 1
        yield full, np.ones(k, dtype=np.int64), batch.declared
