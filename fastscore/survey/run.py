"""Planning and running a survey: options checked once, hands enumerated or sampled in chunks, scored, tallied.

:func:`plan_survey` checks the options and loads the rule tables into a
picklable :class:`SurveyPlan`; :func:`survey_range` enumerates (or draws)
one range of its source hands in chunks, scores each hand once per winning
kind with its integer weights and tallies them
(:data:`fastscore.kernels.survey.survey_kernel`) into a
:class:`~fastscore.survey.tally.SurveyPart`; :func:`survey` runs one range
over everything.  The Dask survey (:func:`fastscore.dask.survey`) runs one
range per task.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .._jit import jit_parallel, prange
from ..enumerate import HAND_TILES, enumerate_hands, space_size
from ..kernels.survey import survey_kernel
from ..records import parse_win
from ..rules import RuleTable, resolve_rules
from ..tables import kernel_tables
from ..tiles import MAX_DECLARED, TILE_NAMES, WINDS, HandError, parse_flowers, parse_wind
from .result import SurveyResult
from .tally import _STRIPES, Accumulators, SurveyPart, Tally, _change_kernel, add_payouts

__all__ = ["DEFAULT_CHUNK_ROWS", "SurveyPlan", "survey", "plan_survey", "survey_range", "warm_up"]

#: Hands per scoring batch of the survey (about 9 scorings per hand with ``win="uniform"``).
DEFAULT_CHUNK_ROWS = 1 << 16


# --------------------------------------------------------------------------- scoring each hand's wins


@jit_parallel
def _count_scorings(full, win, n_scorings):
    """Scorings per hand: its distinct kinds (``win[i]`` -1) or 1 if it holds ``win[i]``."""
    for i in prange(full.shape[0]):
        win_tile = win[i]
        if win_tile >= 0:
            n_scorings[i] = 1 if full[i, win_tile] > 0 else 0
        else:
            k = 0
            for t in range(full.shape[1]):
                if full[i, t] > 0:
                    k += 1
            n_scorings[i] = k


@dataclass(frozen=True)
class _Context:
    """The win context a survey fixes; None (sample only): each sampled hand's own."""

    self_drawn: bool | None
    seat: int | None
    round: int | None
    flowers: int | None
    win_tile: int  # -1: uniform (in a sample: each hand's own winning tile)


@dataclass
class _Chunk:
    """Source hands of one chunk with the context of each hand's wins, as the survey kernel takes them."""

    full: np.ndarray  # (n, 34) uint8: concealed tiles with the winning tile
    multiplicity: np.ndarray  # (n,) int64
    declared: np.ndarray | None  # (n, 5, 2) int8
    win: np.ndarray  # (n,) int64: -1 each kind, else the winning tile
    self_drawn: np.ndarray  # (n,) bool
    seat: np.ndarray  # (n,) int64
    round: np.ndarray  # (n,) int64
    flowers: np.ndarray  # (n,) int64


class _Scorings:
    """Reusable per-scoring columns of one survey's chunks (no fresh pages per chunk): the payouts under
    each table and the two weights."""

    def __init__(self):
        self.capacity = 0
        self._grow(1)

    def _grow(self, m: int) -> None:
        m = max(m, 2 * self.capacity)
        self.columns = [np.empty(m, dtype=np.int64) for _ in range(4)]
        self.capacity = m

    def score(self, plan: "SurveyPlan", chunk: _Chunk, share, tallies: Accumulators) -> tuple:
        """Score every win of a chunk's hands and add it to ``tallies``; returns (payout, payout under the
        compared table, unweighted and weighted weights), one entry per scoring (views into the reused columns)."""
        full = chunk.full
        n = full.shape[0]
        counts = np.empty(n, dtype=np.int64)
        _count_scorings(full, chunk.win, counts)
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        m = int(offsets[-1])
        if m > self.capacity:
            self._grow(m)
        payout, payout_other, w_unweighted, w_weighted = (column[:m] for column in self.columns)
        declared = chunk.declared
        if declared is None:
            declared = np.zeros((n, MAX_DECLARED, 2), dtype=np.int8)
        other = plan.other if plan.other is not None else plan.table
        survey_kernel(full, declared, chunk.multiplicity, share, chunk.win, plan.sample is not None,
                      chunk.self_drawn, chunk.seat, chunk.round, chunk.flowers, plan.table.kernel_args,
                      other.kernel_args, plan.other is not None, kernel_tables(), offsets, payout, payout_other,
                      w_unweighted, w_weighted, *tallies.arrays())
        return payout, payout_other, w_unweighted, w_weighted


# --------------------------------------------------------------------------- the survey


def _win_tile(win) -> int:
    """-1 for ``"uniform"``, else the tile of :func:`fastscore.records.parse_win`."""
    if isinstance(win, str) and win.strip().lower() == "uniform":
        return -1
    try:
        return parse_win(win)
    except HandError as exc:
        raise HandError(exc.code, f"win must be 'uniform' or a tile: {exc}") from None


def _fixed_text(fixed) -> str:
    from ..tiles import format_counts

    return format_counts(np.asarray(fixed)) if fixed is not None else ""


def survey(
    *,
    self_drawn: bool | None = None,
    seat=None,
    round=None,
    flowers: str | None = None,
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
    self_drawn : bool, optional
        Every win self-drawn (True) or on a discard (False).
    seat, round : str, optional
        ``"E" "S" "W" "N"``.
    flowers : str, optional
        Flowers and seasons held, e.g. ``"1f5f"`` (``""``: none).
        Each of these four left None is, over the exhaustive space, a win on
        a discard, seat East, round East, no flowers; with ``sample``, each
        sampled hand's own (:func:`fastscore.sample_winning` draws them).
    win : "uniform" or str
        ``"uniform"``: the winning tile is drawn uniformly from the hand's
        tiles.  Over the exhaustive space each distinct kind is scored,
        weighted by its count; with ``sample``, each hand is scored once, on
        its own winning tile (which the sampler drew uniformly from its
        concealed tiles).  A tile such as ``"9s"``: only hands holding it,
        won on it.
    rules, compare : RuleTable, path or None
        The rule table (default the packaged one) and an optional second
        table; with ``compare`` every scoring is made under both.
    sample : int, optional
        Instead of the exhaustive space, ``sample_winning(sample, seed)``
        hands (declared sets and special shapes included), each counted once:
        both weightings are the plain count of sampled hands.  Their context
        is their own except where fixed above; streak 0 and no Closing always.
    seed : int
        Seed of ``sample``.
    suits, honours, fixed
        Restrict the exhaustive space (see :func:`fastscore.enumerate.enumerate_hands`).
    chunk_rows : int
        Hands per scoring batch; the result does not depend on it.  Memory is
        about 2 kB per hand with ``win="uniform"`` (about 9 scorings each):
        some 130 MB at the default 65,536, twice the score columns with ``compare``.
    progress : bool
        A progress bar (hands) on stderr with the time left.

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
    from .._progress import progress_bar

    scorings = _Scorings()
    warm_up(plan, scorings)
    start = time.perf_counter()
    with progress_bar(plan.size, "survey", disable=not progress) as bar:
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
                            part.compare, part.change if self.other is not None else None, seconds, self.table,
                            self.other)


def plan_survey(
    *,
    self_drawn: bool | None = None,
    seat=None,
    round=None,
    flowers: str | None = None,
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
    """Check the options of :func:`survey` (same parameters, same errors) and load the rule tables.

    Parameters
    ----------
    self_drawn, seat, round, flowers, win, rules, compare, sample, seed, suits, honours, fixed, chunk_rows
        As in :func:`survey`.

    Returns
    -------
    SurveyPlan
        Picklable; ``plan.size`` source hands for :func:`survey_range`.

    Raises
    ------
    ValueError
        As :func:`survey`.
    """
    win_tile = _win_tile(win)
    sampled = sample is not None
    if not sampled:  # the exhaustive space's defaults: on a discard, East seat and round, no flowers
        self_drawn = False if self_drawn is None else self_drawn
        seat, round, flowers = seat or "E", round or "E", "" if flowers is None else flowers
    ctx = _Context(None if self_drawn is None else bool(self_drawn),
                   None if seat is None else parse_wind(seat, "seat"),
                   None if round is None else parse_wind(round, "round"),
                   None if flowers is None else sum(1 << (n - 1) for n in parse_flowers(flowers)), win_tile)
    own = "each hand's own"
    table: RuleTable = resolve_rules(rules)
    other: RuleTable | None = resolve_rules(compare) if compare is not None else None
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    context = {
        "self_drawn": own if ctx.self_drawn is None else ctx.self_drawn,
        "seat": own if ctx.seat is None else WINDS[ctx.seat],
        "round": own if ctx.round is None else WINDS[ctx.round],
        "flowers": own if flowers is None else "".join(f"{n}f" for n in parse_flowers(flowers)),
        "win": ("each hand's own (drawn uniformly)" if sampled else "uniform") if win_tile < 0
        else TILE_NAMES[win_tile],
        "rules": table.path, "compare": other.path if other is not None else None,
        "sample": sample, "seed": seed if sample is not None else None,
        "suits": suits, "honours": bool(honours), "fixed": _fixed_text(fixed),
    }
    if sample is not None:
        if isinstance(sample, bool) or not isinstance(sample, (int, np.integer)) or sample < 1:
            raise ValueError(f"sample must be a positive number of hands, got {sample!r}")
        if suits != "mps" or not honours or fixed is not None:
            raise ValueError("sample= draws from sample_winning; suits, honours and fixed restrict only the exhaustive space")
        unit = 1
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
    win_tile = plan.ctx.win_tile
    uniform = win_tile < 0 and plan.sample is None  # each hand's every kind, shares of the unit
    part = SurveyPart(compare=Tally() if plan.other is not None else None)
    change_acc = np.zeros((_STRIPES, 2, 3), dtype=np.int64)
    tallies = Accumulators()
    scorings = _scorings if _scorings is not None else _Scorings()
    if plan.sample is not None:
        chunks = _sample_chunks(plan.ctx, plan.seed, start, stop, plan.chunk_rows)
    else:
        chunks = _space_chunks(plan.ctx, plan.suits, plan.honours, plan.fixed, start, stop, plan.chunk_rows)
    for chunk in chunks:
        full, multiplicity = chunk.full, chunk.multiplicity
        n_concealed = full.sum(axis=1, dtype=np.int64)
        share = plan.unit // n_concealed if uniform else np.ones(len(full), dtype=np.int64)
        payout, payout_other, w_unweighted, w_weighted = scorings.score(plan, chunk, share, tallies)
        held = full[np.arange(len(full)), chunk.win] > 0 if not uniform else slice(None)
        part.hands += len(full) if uniform else int(held.sum())
        part.multiplicity += int(multiplicity[held].sum())
        part.scorings += len(payout)
        add_payouts(part.tally, payout, w_unweighted, w_weighted)
        if plan.other is not None:
            add_payouts(part.compare, payout_other, w_unweighted, w_weighted)
            _change_kernel(payout, payout_other, w_unweighted, w_weighted, change_acc)
        if on_chunk is not None:
            on_chunk(len(full))
    tallies.add_to(part.tally, 0)
    if plan.other is not None:
        tallies.add_to(part.compare, 1)
    part.change = change_acc.sum(axis=0)
    return part


def warm_up(plan: "SurveyPlan", scorings: _Scorings | None = None) -> None:
    """Compile (or load from the cache) every kernel of ``plan``'s survey (serial and parallel builds) on a
    few hands, so that the timing and the progress bar's time left measure the survey itself
    (:func:`fastscore.warmup` calls it too)."""
    scorings = scorings if scorings is not None else _Scorings()
    hands, multiplicity = next(enumerate_hands(suits="", chunk_rows=64))
    hands, multiplicity = np.tile(hands, (13, 1)), np.tile(multiplicity, 13)  # 546 hands
    share = np.ones(len(hands), dtype=np.int64)
    chunk = _context_chunk(plan.ctx, hands, multiplicity, None)
    for n in (8, len(hands)):  # the serial and the parallel build (PARALLEL_MIN_ROWS)
        part = _Chunk(*(None if a is None else a[:n] for a in vars(chunk).values()))
        payout, payout_other, w_unweighted, w_weighted = scorings.score(plan, part, share[:n], Accumulators())
        add_payouts(Tally(), payout, w_unweighted, w_weighted)
    _change_kernel(payout, payout, w_unweighted, w_weighted, np.zeros((_STRIPES, 2, 3), dtype=np.int64))
    if plan.sample is not None:  # the sampler's kernel too
        from ..sample import sample_winning

        sample_winning(1, plan.seed)


def _context_chunk(ctx: _Context, full, multiplicity, declared, own=None) -> _Chunk:
    """A chunk whose wins have ``ctx``'s context, or, where ``ctx`` leaves a field None, the sampled
    batch ``own``'s (its winning tile for ``win_tile`` -1); without ``own`` (warming up), the defaults."""
    n = len(full)

    def column(value, name, default, dtype):
        if value is None and own is not None:
            return np.ascontiguousarray(getattr(own, name), dtype=dtype)
        return np.full(n, default if value is None else value, dtype=dtype)

    win = ctx.win_tile if ctx.win_tile >= 0 or own is None else None
    return _Chunk(full, multiplicity, declared, column(win, "win", -1, np.int64),
                  column(ctx.self_drawn, "self_drawn", False, np.bool_), column(ctx.seat, "seat", 0, np.int64),
                  column(ctx.round, "round", 0, np.int64), column(ctx.flowers, "flowers", 0, np.int64))


def _space_chunks(ctx, suits, honours, fixed, start, stop, chunk_rows):
    for hands, multiplicity in enumerate_hands(suits=suits, honours=honours, fixed=fixed, chunk_rows=chunk_rows,
                                               start=start, stop=stop):
        yield _context_chunk(ctx, hands, multiplicity, None)


def _sample_chunks(ctx: _Context, seed: int, start: int, stop: int, chunk_rows: int):
    """Hands ``start .. stop - 1`` of ``sample_winning(.., seed)`` in chunks (concealed + winning tile,
    multiplicity 1, declared, each hand's own context where ``ctx`` leaves it open).  Hand i depends only
    on (seed, i), so chunks and ranges cut anywhere."""
    from ..sample import sample_winning

    for first in range(start, stop, chunk_rows):
        k = min(chunk_rows, stop - first)
        batch = sample_winning(k, seed, start=first)
        full = batch.concealed.copy()
        full[np.arange(k), batch.win.astype(np.int64)] += 1
        yield _context_chunk(ctx, full, np.ones(k, dtype=np.int64), batch.declared, own=batch)
