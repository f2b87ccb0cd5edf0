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
from ..rules import ROW_IDS, SHAPE_NAMES
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

    One record per tally, columns:

    ``table`` (string)
        ``rules``, ``compare`` (the compared table) or ``change``.
    ``statistic`` (string)
        ``total``, ``row``, ``shape``, ``chicken``, ``illegal`` (below the
        round minimum), ``payout``, ``payout_change``.
    ``key`` (string)
        The row id, shape name, payout value in points as text,
        ``lower``/``equal``/``higher`` (payout under ``compare`` against
        ``rules``), or empty.
    ``unweighted`` (int64)
        A plain count.  A sample: sampled hands.  The exhaustive space with
        ``win="uniform"``: (hand, winning tile) pairs, every tile of a hand
        in turn the winning one (17 per hand; a kind held twice counts twice).
        With a given winning tile: hands holding it.
    ``weighted`` (int64, exhaustive space only)
        A plain count of (set of physical tiles, winning tile) draws: the
        unweighted count with every hand counted by its multiplicity.
    ``unweighted_fraction``, ``weighted_fraction`` (float64)
        The count over the ``total`` of its table; ``weighted_fraction``
        only with ``weighted``.

    A sample has no ``weighted`` columns: its hands count once (they would
    repeat ``unweighted``).  Each column's description is also in its field
    metadata (key ``description``).  Metadata key ``fastscore.survey`` holds
    the JSON of ``result.context`` plus hands, scorings, unit, multiplicity
    and seconds.

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

    rules, compare = result.rule_tables()
    tables = [("rules", result.tally, rules)] + ([("compare", result.compare, compare)] if compare else [])
    for name, tally, rule_table in tables:
        add(name, tally, "total", "", tally.total)
        for rid in rule_table.row_ids:  # its rows in force, in catalog order (as its results)
            add(name, tally, "row", rid, tally.rows[:, ROW_IDS.index(rid)])
        for s, key in enumerate(SHAPE_KEYS):
            add(name, tally, "shape", key, tally.shapes[:, s])
        add(name, tally, "chicken", "", tally.chicken)
        add(name, tally, "illegal", "", tally.illegal)
        for p in np.flatnonzero(tally.payout.any(axis=0)):
            add(name, tally, "payout", str(int(p)), tally.payout[:, p])
    if result.payout_change is not None:
        for k, key in enumerate(("lower", "equal", "higher")):
            add("change", result.tally, "payout_change", key, result.payout_change[:, k])
    columns = dict(zip(("table", "statistic", "key", "unweighted", "weighted", "unweighted_fraction",
                        "weighted_fraction"), zip(*records) if records else [()] * 7))
    fields = [pa.field(name, kind, metadata={"description": text})
              for name, kind, text in _parquet_columns(result)]
    schema = pa.schema(fields, metadata={"fastscore.survey": json.dumps(_meta(result))})
    table = pa.Table.from_arrays([pa.array(columns[f.name], type=f.type) for f in fields], schema=schema)
    path = Path(path)
    pq.write_table(table, path, write_page_checksum=True)  # verified by readers (docs/faults.md)
    return path


def _parquet_columns(result: SurveyResult) -> list[tuple]:
    """(name, Arrow type, description) of each column of ``survey.parquet`` (see :func:`write_parquet`)."""
    import pyarrow as pa

    if result.sampled:
        counted = "sampled hands"
    elif result.context["win"] == "uniform":
        counted = "(hand, winning tile) pairs: each of a hand's 17 tiles in turn the winning one"
    else:
        counted = f"hands holding {result.context['win']}, won on it"
    columns = [
        ("table", pa.string(), "rules, compare (the compared table) or change"),
        ("statistic", pa.string(), "total, row, shape, chicken, illegal, payout or payout_change"),
        ("key", pa.string(), "row id, shape, payout in points, lower/equal/higher, or empty"),
        ("unweighted", pa.int64(), f"count of {counted}"),
    ]
    if not result.sampled:
        columns.append(("weighted", pa.int64(), "count of (set of physical tiles, winning tile) draws"))
    columns.append(("unweighted_fraction", pa.float64(), "unweighted / the table's unweighted total"))
    if not result.sampled:
        columns.append(("weighted_fraction", pa.float64(), "weighted / the table's weighted total"))
    return columns


def _meta(result: SurveyResult) -> dict:
    return {**result.context, "hands": result.hands, "scorings": result.scorings, "unit": result.unit,
            "multiplicity": result.multiplicity, "seconds": round(result.seconds, 3)}


def markdown(result: SurveyResult, plots: bool = True) -> str:
    """The text of ``report.md``.

    Over the exhaustive space every table has an unweighted and a weighted
    column; a sample's tables have one (a sampled hand counts once, so the
    two are the same).  The payout table groups payouts in
    :data:`~fastscore.survey.tally.PAYOUT_BINS` with counts and shares.
    With a compared table, a section gives the mean payout under each, the
    share of scorings paid less, the same or more, and every row whose points
    or frequency differ, with its points under each table.

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
    columns = _columns(result)
    head = "| " + " | ".join(name for name, _ in columns) + " |"
    lines = [
        "# fastscore survey",
        "",
        f"- space: {_space_line(ctx)}",
        f"- win context: {_context_text(ctx)}",
        f"- rule table: `{ctx['rules']}`" + (f"; compared with `{ctx['compare']}`" if ctx.get("compare") else ""),
        f"- hands: {result.hands:,}; scorings: {result.scorings:,}"
        + ("" if result.sampled else f"; total multiplicity: {result.multiplicity:,}"),
        f"- wall time: {result.seconds:.1f} s",
        "",
        _weighting_text(result),
        "",
    ]
    if not plots:
        lines += ["Plots were not drawn: they need matplotlib (`pip install 'fastscore[report]'`).", ""]

    def row(label: str, counts) -> str:
        return f"| {label} | " + " | ".join(_pct(t.fraction(counts, w)) for _, w in columns) + " |"

    lines += ["## Summary", "", "| |" + head[1:],
              "|---|" + "---:|" * len(columns),
              row("Chicken", t.chicken), row("below the minimum (payout 0)", t.illegal),
              "| mean payout | " + " | ".join(_number(t.mean_payout(w)) for _, w in columns) + " |",
              "| mean payout of a legal win | " + " | ".join(_number(t.mean_payout(w, True)) for _, w in columns)
              + " |"]
    for s, key in enumerate(SHAPE_KEYS):
        if t.shapes[:, s].any():
            lines.append(row(f"shape {key}", t.shapes[:, s]))
    lines += ["", "## Rows", ""] + _image("row frequency", "rows.png", plots) + [
        "Share of scorings in which each row scores.", "", "| row |" + head[1:], "|---|" + "---:|" * len(columns)]
    for rid, _ in result.top_rows(len(ROW_IDS)):
        lines.append(row(f"`{rid}`", t.rows[:, ROW_IDS.index(rid)]))
    labels, counts = t.payout_bins()
    lines += ["", "## Payout", ""] + _image("payout distribution", "payout.png", plots) + [
        "Payout in points (0: below the round minimum). "
        + ("Count: sampled hands." if result.sampled else
           "Count: (hand, winning tile) pairs, unweighted." if ctx["win"] == "uniform" else "Count: hands, unweighted."),
        "", "| payout | count |" + head[1:], "|---:|---:|" + "---:|" * len(columns)]
    for b, label in enumerate(labels):
        if counts[:, b].any():
            lines.append(f"| {label} | {int(counts[0, b]):,} | "
                         + " | ".join(_pct(t.fraction(counts[:, b], w)) for _, w in columns) + " |")
    lines.append(f"| all | {int(t.total[0]):,} | " + " | ".join("100%" for _ in columns) + " |")
    if result.compare is not None:
        lines += [""] + _comparison(result, plots)
    lines += ["", "All tallies are in `survey.parquet` (exact integer counts and fractions).", ""]
    return "\n".join(lines)


def _columns(result: SurveyResult) -> list[tuple[str, bool]]:
    """The report's columns: (header, weighted)."""
    if result.sampled:
        return [("share of sampled hands", False)]
    return [("unweighted", False), ("weighted", True)]


def _weighting_text(result: SurveyResult) -> str:
    ctx = result.context
    if result.sampled:
        if ctx["win"].startswith("each"):
            return "Every sampled hand counts once, scored on its own winning tile."
        return f"Only the sampled hands holding {ctx['win']} count, once each, won on {ctx['win']}."
    return ("Unweighted: every hand counts once. Weighted: every hand counts by its multiplicity "
            "(the number of distinct sets of physical tiles it stands for). "
            + ("The winning tile is drawn uniformly from the hand's tiles."
               if ctx["win"] == "uniform" else f"The winning tile is {ctx['win']}."))


def _comparison(result: SurveyResult, plots: bool) -> list[str]:
    """The comparison section: what changes from the rules to the compared table, points and frequencies."""
    ctx, t, c = result.context, result.tally, result.compare
    weighted = not result.sampled
    what = "weighted" if weighted else "share of sampled hands"
    table_a, table_b = result.rule_tables()
    lower, equal, higher = (int(v) for v in result.payout_change[int(weighted)])
    total = lower + equal + higher
    mean_a, mean_b = t.mean_payout(weighted), c.mean_payout(weighted)
    lines = ["## Comparison", ""] + _image("comparison", "compare.png", plots) + [
        f"Rules `{ctx['rules']}` (a) against `{ctx['compare']}` (b), {what}.", "",
        f"Mean payout {_number(mean_a)} under a, {_number(mean_b)} under b ({_signed(mean_b - mean_a)} points). "
        "Under b a scoring is paid "
        + ", ".join(f"{name} {_pct(v / total if total else 0.0)}"
                    for name, v in (("less", lower), ("the same", equal), ("more", higher))) + ".", "",
        "| | a | b | b - a |", "|---|---:|---:|---:|"]
    for label, name in (("Chicken", "chicken"), ("below the minimum", "illegal")):
        fa, fb = float(t.fraction(getattr(t, name), weighted)), float(c.fraction(getattr(c, name), weighted))
        lines.append(f"| {label} | {_pct(fa)} | {_pct(fb)} | {_signed(100 * (fb - fa), '%')} |")
    for name, value in (("round minimum (E S W N)", lambda r: " ".join(str(int(v)) for v in r.minimum)),
                        ("Chicken rule", lambda r: "on" if r.chicken_rule else "off"),
                        ("Chicken points", lambda r: str(r.chicken_points)),
                        ("payout of a legal win", lambda r: f"{r.pay_base} + {r.pay_unit} x points"),
                        ("shapes that win", lambda r: ", ".join(n for n, w in zip(SHAPE_NAMES, r.win_shapes) if w)),
                        ("rows in force", lambda r: str(len(r.row_ids)))):
        if value(table_a) != value(table_b):
            lines.append(f"| {name} | {value(table_a)} | {value(table_b)} | |")
    changed = []
    fa, fb = result.row_frequency(weighted), result.row_frequency(weighted, table="compare")
    for r, rid in enumerate(ROW_IDS):
        pa, pb = _points(table_a, r), _points(table_b, r)
        if pa != pb or fa[rid] != fb[rid]:
            changed.append(f"| `{rid}` | {pa} | {pb} | {_pct(fa[rid])} | {_pct(fb[rid])} | "
                           f"{_signed(100 * (fb[rid] - fa[rid]), '%')} |")
    if changed:
        lines += ["", "Rows whose points or frequency differ (frequency: share of scorings in which the row scores).",
                  "", "| row | points a | points b | frequency a | frequency b | b - a |",
                  "|---|---:|---:|---:|---:|---:|"] + changed
    return lines


def _points(table, r: int) -> str:
    """A row's points in a table as text: per unit, or the tiers of a tiered row."""
    tiers = [int(v) for v in table.tiers[r]]
    return " / ".join(map(str, tiers)) if any(tiers) else str(int(table.points[r]))


def _number(x: float) -> str:
    return f"{x:,.2f}"


def _signed(x: float, unit: str = "") -> str:
    if x == 0:
        return "0"
    return f"{x:+,.2f}{unit}" if abs(x) >= 0.005 else f"{x:+.1e}{unit}"


def _image(alt: str, name: str, plots: bool) -> list[str]:
    """The markdown lines of one plot and the blank line after it, or none without plots."""
    return [f"![{alt}]({name})", ""] if plots else []


def _pct(x: float) -> str:
    """A share for people: ``"12.35%"``, ``"0.30%"``, ``"0.0012%"`` (two significant digits below 0.01%),
    ``"< 0.0001%"``; never in scientific notation."""
    if x == 0:
        return "0"
    if x >= 1e-4:
        return f"{100 * x:.2f}%"
    return f"{100 * x:.2g}%" if x >= 1e-6 else "< 0.0001%"


def _space_line(ctx: dict) -> str:
    if ctx.get("sample"):
        return f"{ctx['sample']:,} random winning hands (sample_winning, seed {ctx['seed']})"
    parts = [f"complete concealed standard hands, number suits '{ctx['suits']}'",
             "honours" if ctx["honours"] else "no honours"]
    if ctx.get("fixed"):
        parts.append(f"holding {ctx['fixed']}")
    return ", ".join(parts)


def _context_text(ctx: dict) -> str:
    """The win context in words; a field a sample leaves open reads "each hand's own"."""
    drawn = ctx["self_drawn"]
    how = drawn if isinstance(drawn, str) else "self-drawn" if drawn else "on a discard"
    return (f"winning tile {ctx['win']}; self-draw: {how}; seat {ctx['seat']}; round {ctx['round']}; "
            f"flowers {ctx['flowers'] or 'none'}; streak 0, no Closing")

