"""The survey report: ``report.md`` (summary, row and payout tables, comparison), its plots, ``survey.parquet``.

:func:`write_report` is :meth:`SurveyResult.report <fastscore.survey.SurveyResult.report>`
and :func:`write_parquet` is :meth:`SurveyResult.to_parquet
<fastscore.survey.SurveyResult.to_parquet>`.  The plots need matplotlib
(the ``report`` extra); without it the report is written without them and
says so.  The report folder is written whole under a hidden name beside it
and renamed into place, so an interrupted run never leaves a report that
looks complete (:func:`write_report`).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .. import _folders
from .._lock import OutputLock
from ..rules import ROW_IDS
from .plots import plot_compare, plot_payout, plot_rows, plots_available
from .tally import SHAPE_KEYS, Tally

if TYPE_CHECKING:
    from .result import SurveyResult

__all__ = ["REPORT_FILES", "write_report", "write_parquet", "markdown"]


#: The files of a report folder (the plots only with matplotlib, ``compare.png`` only with a compared table).
REPORT_FILES = ("report.md", "survey.parquet", "payout.png", "rows.png", "compare.png")


def write_report(result: SurveyResult, folder) -> Path:
    """Write ``report.md`` with PNG plots (and ``survey.parquet``) as the folder ``folder``, replacing it whole.

    Plots: ``payout.png`` (:func:`~fastscore.survey.plot_payout`),
    ``rows.png`` (:func:`~fastscore.survey.plot_rows`) and, with a compared
    table, ``compare.png`` (:func:`~fastscore.survey.plot_compare`).  Without
    matplotlib they are left out, the page says so and one line on stderr
    says what to install.

    The folder is the report.  Every file is written into the hidden folder
    ``.<name>.partial-<token>`` beside it, which is then renamed to
    ``folder``; an older report there is renamed aside first and deleted
    once the new one is in (:mod:`fastscore._folders`).  A reader finds the
    old report whole or the new one whole, never a cut ``report.md`` or old
    plots beside new ones; a run interrupted in any way leaves the old
    report (or no folder) and at most the hidden folder, which the next
    report into ``folder`` removes.  The lock ``.<name>.lock`` beside it is
    held meanwhile (:class:`fastscore._lock.OutputLock`).

    Parameters
    ----------
    result : SurveyResult
    folder : str or Path
        A new folder, an empty one, or one holding a report (only the files
        of :data:`REPORT_FILES`), which is replaced.  Its parent is created
        if missing.

    Returns
    -------
    Path
        The page, ``folder / "report.md"``.

    Raises
    ------
    ValueError
        ``folder`` is a file or holds other files than a report's (they are
        never deleted), or another run is writing it.
    OSError
        The folder or a file cannot be written.
    """
    folder = check_folder(folder)
    with OutputLock(folder):
        _folders.sweep(folder)
        temp = _folders.new_partial(folder)
        try:
            _write_files(result, temp)
            _folders.publish(temp, folder)
        except BaseException:
            shutil.rmtree(temp, ignore_errors=True)
            raise
    return folder / "report.md"


def check_folder(folder) -> Path:
    """``folder`` as a Path if :func:`write_report` may write it (the survey command checks before it
    runs); raises its ValueError otherwise."""
    folder = _folders.target(folder)
    if folder.exists():
        if not folder.is_dir():
            raise ValueError(f"{folder}: is a file; a survey report is written as a folder")
        other = sorted(p.name for p in folder.iterdir() if p.name not in REPORT_FILES)
        if other:
            raise ValueError(f"{folder}: holds {other[0]}, which is not a file of a fastscore survey report "
                             f"({', '.join(REPORT_FILES)}); a report replaces its folder whole, so give a new "
                             f"or empty folder, or remove the other files")
    return folder


def _write_files(result: SurveyResult, folder: Path) -> None:
    """The report's files, written into ``folder`` (it exists)."""
    plots = plots_available()
    if plots:
        figures = {"payout.png": plot_payout, "rows.png": plot_rows}
        if result.compare is not None:
            figures["compare.png"] = plot_compare
        for name, plot in figures.items():
            plot(result).savefig(folder / name, dpi=110)
    else:
        print("fastscore: survey report written without plots (they need matplotlib: "
              "pip install 'fastscore[report]')", file=sys.stderr)
    write_parquet(result, folder / "survey.parquet")
    (folder / "report.md").write_text(markdown(result, plots=plots), encoding="utf-8")


def write_parquet(result: SurveyResult, path) -> Path:
    """Write every tally as one long table (pyarrow), the context in the schema metadata.

    Columns: ``table`` (``rules`` / ``compare`` / ``change``), ``statistic``
    (``total``, ``row``, ``shape``, ``chicken``, ``illegal``, ``payout``,
    ``payout_change``), ``key`` (row id, shape name, payout value as text,
    ``lower``/``equal``/``higher``, or empty), ``unweighted`` and
    ``weighted`` (int64 exact tallies), ``unweighted_fraction`` and
    ``weighted_fraction`` (float64, tally / total).  Metadata key
    ``fastscore.survey`` holds the JSON of ``result.context`` plus hands,
    scorings, unit, multiplicity and seconds.

    Parameters
    ----------
    result : SurveyResult
    path : str or Path

    Returns
    -------
    Path
        ``path``.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    records: list[tuple] = []

    def add(table: str, tally: Tally, statistic: str, key: str, values) -> None:
        u, w = int(values[0]), int(values[1])
        tu, tw = int(tally.total[0]), int(tally.total[1])
        records.append((table, statistic, key, u, w, u / tu if tu else 0.0, w / tw if tw else 0.0))

    tables = [("rules", result.tally)] + ([("compare", result.compare)] if result.compare is not None else [])
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
    if result.payout_change is not None:
        for k, key in enumerate(("lower", "equal", "higher")):
            add("change", result.tally, "payout_change", key, result.payout_change[:, k])
    columns = list(zip(*records))
    schema = pa.schema([
        ("table", pa.string()), ("statistic", pa.string()), ("key", pa.string()),
        ("unweighted", pa.int64()), ("weighted", pa.int64()),
        ("unweighted_fraction", pa.float64()), ("weighted_fraction", pa.float64()),
    ], metadata={"fastscore.survey": json.dumps(_meta(result))})
    table = pa.Table.from_arrays([pa.array(c, type=f.type) for c, f in zip(columns, schema)], schema=schema)
    path = Path(path)
    pq.write_table(table, path, write_page_checksum=True)  # verified by readers (docs/faults.md)
    return path

def _meta(result: SurveyResult) -> dict:
    return {**result.context, "hands": result.hands, "scorings": result.scorings, "unit": result.unit,
            "multiplicity": result.multiplicity, "seconds": round(result.seconds, 3)}


def markdown(result: SurveyResult, plots: bool = True) -> str:
    """The text of ``report.md``.

    Parameters
    ----------
    result : SurveyResult
    plots : bool
        Link the PNG plots (``payout.png``, ``rows.png``, ``compare.png``);
        False: no links, and a line saying what to install for them.

    Returns
    -------
    str
        Markdown, ending with a newline.
    """
    ctx = result.context
    t = result.tally
    lines = [
        "# fastscore survey",
        "",
        f"- space: {_space_line(ctx)}",
        f"- win context: {_context_text(ctx)}",
        f"- rule table: `{ctx['rules']}`" + (f"; compared with `{ctx['compare']}`" if ctx.get("compare") else ""),
        f"- hands: {result.hands:,}; scorings: {result.scorings:,}; total multiplicity: {result.multiplicity:,}",
        f"- wall time: {result.seconds:.1f} s",
        "",
        "Unweighted: every hand counts once. Weighted: every hand counts by its multiplicity "
        "(the number of distinct sets of physical tiles it stands for). "
        + ("The winning tile is drawn uniformly from the hand's tiles."
           if ctx["win"] == "uniform" else f"The winning tile is {ctx['win']}."),
        "",
    ]
    if not plots:
        lines += ["Plots were not drawn: they need matplotlib (`pip install 'fastscore[report]'`).", ""]
    lines += [
        "## Summary",
        "",
        "| | unweighted | weighted |",
        "|---|---:|---:|",
        f"| Chicken | {_pct(result.chicken_fraction(False))} | {_pct(result.chicken_fraction(True))} |",
        f"| below the minimum (payout 0) | {_pct(result.illegal_fraction(False))} | "
        f"{_pct(result.illegal_fraction(True))} |",
        f"| mean payout | {t.mean_payout(False):.2f} | {t.mean_payout(True):.2f} |",
        f"| mean payout of a legal win | {t.mean_payout(False, True):.2f} | {t.mean_payout(True, True):.2f} |",
    ]
    for key, u, w in zip(SHAPE_KEYS, result.shape_fraction(False).values(), result.shape_fraction(True).values()):
        if u or w:
            lines.append(f"| shape {key} | {_pct(u)} | {_pct(w)} |")
    lines += ["", "## Rows", ""] + _image("row frequency", "rows.png", plots) + [
        "| row | unweighted | weighted |", "|---|---:|---:|"]
    unweighted = result.row_frequency(False)
    for rid, freq in result.top_rows(len(ROW_IDS)):
        lines.append(f"| `{rid}` | {_pct(unweighted[rid])} | {_pct(freq)} |")
    lines += ["", "## Payout", ""] + _image("payout distribution", "payout.png", plots) + [
        "| payout | unweighted | weighted |", "|---:|---:|---:|"]
    pu, pw = result.payout_distribution(False), result.payout_distribution(True)
    for p in np.flatnonzero(t.payout.any(axis=0)):
        lines.append(f"| {p} | {_pct(pu[p])} | {_pct(pw[p])} |")
    if result.compare is not None:
        c = result.compare
        change = result.payout_change
        lines += ["", "## Comparison", ""] + _image("comparison", "compare.png", plots) + [
            f"Rules `{ctx['rules']}` against `{ctx['compare']}` (weighted).", "",
            "| | rules | compare |", "|---|---:|---:|",
            f"| Chicken | {_pct(result.chicken_fraction())} | {_pct(result.chicken_fraction(table='compare'))} |",
            f"| below the minimum | {_pct(result.illegal_fraction())} | "
            f"{_pct(result.illegal_fraction(table='compare'))} |",
            f"| mean payout | {t.mean_payout():.2f} | {c.mean_payout():.2f} |"]
        freq_c = result.row_frequency(table="compare")
        for rid, freq in result.row_frequency().items():
            if freq != freq_c[rid]:
                lines.append(f"| `{rid}` | {_pct(freq)} | {_pct(freq_c[rid])} |")
        total = int(change[1].sum())
        lines += ["", "Payout under the compared table, weighted: "
                  + ", ".join(f"{name} {_pct(int(v) / total if total else 0.0)}"
                              for name, v in zip(("lower", "equal", "higher"), change[1]))]
    lines += ["", "All tallies are in `survey.parquet` (exact integer counts and fractions).", ""]
    return "\n".join(lines)


def _image(alt: str, name: str, plots: bool) -> list[str]:
    """The markdown lines of one plot and the blank line after it, or none without plots."""
    return [f"![{alt}]({name})", ""] if plots else []


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

