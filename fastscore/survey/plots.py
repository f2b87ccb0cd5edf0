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
    """Payout histogram (share of scorings per payout value, both weightings).

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
    _payout_bars(ax, result.tally, "", 0.0, 0.42, "tab:blue")
    _log_scale(ax, "y", bool(result.tally.total[0]))
    ax.set_xlabel("payout (points; 0 = below the round minimum)")
    ax.set_ylabel("share of scorings (log scale)")
    ax.set_title(f"Payout distribution ({_title_context(result)})")
    ax.legend()
    return fig


def plot_rows(result: SurveyResult, table: str = "rules"):
    """Horizontal bars: share of scorings in which each row scores, both weightings.

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
    """Two panels (weighted): payout distributions and row frequencies under both tables.

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
