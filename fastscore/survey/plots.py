"""Plots of a survey (matplotlib, the optional ``report`` extra): payout histogram, row frequencies, comparison.

matplotlib is imported only when a figure is drawn, on the Agg canvas (no
pyplot state, no display).  Without it, :func:`plots_available` is False and
every ``plot_*`` raises :class:`ImportError` naming the extra to install.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..rules import ROW_IDS
from .tally import WEIGHTINGS, Tally

if TYPE_CHECKING:
    from .result import SurveyResult

__all__ = ["plots_available", "plot_payout", "plot_rows", "plot_compare"]

#: What to install for the plots.
_PLOTS_NEED = "the survey plots need matplotlib: pip install 'fastscore[report]'"


def plots_available() -> bool:
    """Whether matplotlib can be imported (the plots of :meth:`SurveyResult.report` are drawn only then).

    Returns
    -------
    bool
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _figure(width: float = 8.0, height: float = 4.5):
    """A figure on the Agg canvas (no pyplot state, no display needed)."""
    if not plots_available():
        raise ImportError(_PLOTS_NEED)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _title_context(result: SurveyResult) -> str:
    ctx = result.context
    if result.sampled:
        return f"{ctx['sample']:,} sampled hands"
    drawn = "self-drawn" if ctx["self_drawn"] else "discard"
    return f"win {ctx['win']}, {drawn}, seat {ctx['seat']}, round {ctx['round']}"


def _series(result: SurveyResult) -> list[tuple[str, bool]]:
    """The plotted series, (label, weighted): one for a sample (its hands count once), else both weightings."""
    if result.sampled:
        return [("sampled hands", False)]
    return [(name, bool(w)) for w, name in enumerate(WEIGHTINGS)]


#: Colours of the first and second series (distinct hues, so neither hides the other).
_COLOURS = ("tab:blue", "tab:orange")


def _log_scale(ax, axis: str, has_data: bool) -> None:
    """Log scale on ``axis`` ("x" or "y"), or a note on an empty plot (a log axis needs positive data)."""
    if has_data:
        (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
    else:
        ax.text(0.5, 0.5, "no hands in this space", transform=ax.transAxes, ha="center", va="center")


def _grouped_bars(ax, labels: list[str], series: list[tuple[str, np.ndarray]], horizontal: bool = False) -> None:
    """Bars of each series side by side at each label (never over each other), one colour per series."""
    k = len(series)
    width = 0.8 / k
    x = np.arange(len(labels))
    for j, (name, values) in enumerate(series):
        offset = (j - (k - 1) / 2) * width
        if horizontal:
            ax.barh(x + offset, values, height=width, color=_COLOURS[j], label=name)
        else:
            ax.bar(x + offset, values, width=width, color=_COLOURS[j], label=name)
    if horizontal:
        ax.set_yticks(x, labels, fontsize=8 if k == 1 else 7)
        ax.invert_yaxis()
    else:
        ax.set_xticks(x, labels, rotation=45, ha="right")


def _payout_series(tallies: list[tuple[str, Tally, bool]]) -> tuple[list[str], list[tuple[str, np.ndarray]]]:
    """Binned payout shares (:meth:`Tally.payout_bins`) of each (name, tally, weighted), bins that any holds."""
    labels, _ = tallies[0][1].payout_bins()
    shares = []
    for name, tally, weighted in tallies:
        _, counts = tally.payout_bins()
        shares.append((name, tally.fraction(counts, weighted)))
    keep = [b for b in range(len(labels)) if any(v[b] for _, v in shares)]
    return [labels[b] for b in keep], [(name, v[keep]) for name, v in shares]


def plot_payout(result: SurveyResult):
    """Payout histogram: share of scorings per payout bin (:data:`~fastscore.survey.tally.PAYOUT_BINS`),
    both weightings side by side (a sample: its one count).

    Parameters
    ----------
    result : SurveyResult

    Returns
    -------
    matplotlib.figure.Figure
        On the Agg canvas: ``fig.savefig(path)`` writes a PNG.

    Raises
    ------
    ImportError
        matplotlib is not installed (``pip install 'fastscore[report]'``).
    """
    fig = _figure()
    ax = fig.add_subplot()
    labels, series = _payout_series([(name, result.tally, w) for name, w in _series(result)])
    _grouped_bars(ax, labels, series)
    _log_scale(ax, "y", bool(result.tally.total[0]))
    ax.set_xlabel("payout in points (0 = below the round minimum)")
    ax.set_ylabel("share of scorings (log scale)")
    ax.set_title(f"Payout distribution ({_title_context(result)})")
    ax.legend()
    return fig


def plot_rows(result: SurveyResult, table: str = "rules"):
    """Horizontal bars: share of scorings in which each row scores, both weightings side by side (a sample:
    its one count).

    Parameters
    ----------
    result : SurveyResult
    table : {"rules", "compare"}
        Which rule table's tallies.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ImportError
        matplotlib is not installed (``pip install 'fastscore[report]'``).
    ValueError
        ``table="compare"`` on a survey without a compared table.
    """
    rows = [rid for rid, _ in result.top_rows(len(ROW_IDS), table=table)]
    fig = _figure(8.0, max(3.0, 0.28 * len(rows) + 1.2))
    ax = fig.add_subplot()
    series = []
    for name, weighted in _series(result):
        freq = result.row_frequency(weighted, table=table)
        series.append((name, np.array([freq[r] for r in rows])))
    _grouped_bars(ax, rows, series, horizontal=True)
    _log_scale(ax, "x", bool(rows))
    ax.set_xlabel("share of scorings in which the row scores (log scale)")
    ax.set_ylabel("row")
    ax.set_title(f"Row frequency ({_title_context(result)})")
    ax.legend()
    return fig


def plot_compare(result: SurveyResult):
    """Two panels, the two tables side by side (weighted; a sample: its one count): binned payout
    distributions and row frequencies.

    Parameters
    ----------
    result : SurveyResult
        A survey made with ``compare=``.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        The survey has no compared rule table.
    ImportError
        matplotlib is not installed (``pip install 'fastscore[report]'``).
    """
    if result.compare is None:
        raise ValueError("this survey has no compared rule table (survey(..., compare=...))")
    ctx = result.context
    names = (Path(str(ctx["rules"])).name, Path(str(ctx["compare"])).name)
    if names[0] == names[1]:
        names = ("rules", "compare")
    weighted = not result.sampled
    what = "weighted" if weighted else "sampled hands"
    fig = _figure(12.0, 6.0)
    left, right = fig.subplots(1, 2)
    labels, series = _payout_series([(names[0], result.tally, weighted), (names[1], result.compare, weighted)])
    _grouped_bars(left, labels, series)
    _log_scale(left, "y", bool(result.tally.total[0]))
    left.set_xlabel("payout in points (0 = below the round minimum)")
    left.set_ylabel(f"share of scorings, {what} (log scale)")
    left.set_title("Payout distribution")
    left.legend()
    a, b = result.row_frequency(weighted), result.row_frequency(weighted, table="compare")
    rows = [r for r in ROW_IDS if a[r] or b[r]]
    rows.sort(key=lambda r: -max(a[r], b[r]))
    _grouped_bars(right, rows, [(names[0], np.array([a[r] for r in rows])), (names[1], np.array([b[r] for r in rows]))],
                  horizontal=True)
    _log_scale(right, "x", bool(rows))
    right.set_xlabel(f"share of scorings in which the row scores, {what} (log scale)")
    right.set_ylabel("row")
    right.set_title("Row frequency")
    right.legend()
    fig.suptitle(f"{names[0]} vs {names[1]} ({_title_context(result)})")
    return fig
