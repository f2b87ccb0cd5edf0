"""What the command line prints: the console, the summaries of a batch job, the first bad rows, errors.

Kept apart from :mod:`fastscore.cli` (the click commands): rich is imported only
when something is printed.
"""

from __future__ import annotations

from typing import NoReturn

import click

__all__ = ["console", "context_line", "fail", "rule_table", "count_table", "hand_line", "print_bad_rows", "print_summary", "share",
           "shanten_line", "totals_line", "wind"]

def fail(message: str) -> NoReturn:
    """Print ``error: message`` to stderr and exit with status 2."""
    click.echo(f"error: {message}", err=True)
    raise click.exceptions.Exit(2)


def rule_table(rules):
    """The rule table of ``--rules`` / ``--profile`` (a path, a profile name or None; exit 2 on a bad file)."""
    from .rules import resolve_rules

    try:
        return resolve_rules(rules)
    except ValueError as exc:
        fail(str(exc))


#: A job shorter than this prints no rate: it would measure start-up (the first chunk, a compile), not speed.
RATE_MIN_SECONDS = 1.0


def totals_line(rows: int, bad: int, seconds: float) -> str:
    """``rows: N  bad rows: B  time: T s`` and, for a run of a second or more, ``hands per second: R``."""
    line = f"rows: {rows:,}  bad rows: {bad:,}  time: {seconds:.2f} s"
    if seconds >= RATE_MIN_SECONDS:
        line += f"  hands per second: {rows / seconds:,.0f}"
    return line


def hand_line(hand: str, win: str, self_drawn: bool) -> str:
    """``HAND + TILE (self-drawn)`` or ``(on a discard)``: the first line of ``score`` and ``interpretations``."""
    return f"{hand} + {win} ({'self-drawn' if self_drawn else 'on a discard'})"


def wind(value: str, field: str) -> int:
    """The wind (0-3) of a --seat or --round the command accepted, read as the records are (empty: East)."""
    from .records import _missing_as
    from .tiles import parse_wind

    return parse_wind(_missing_as(value, "E"), field)


def context_line(*, seat: str, round: str, flowers: str, streak: int, closing: bool, events: str | None = None) -> str:
    """The context options of a single-hand command, as its first line shows them."""
    from .tiles import WINDS

    parts = [f"seat {WINDS[wind(seat, 'seat')]}", f"round {WINDS[wind(round, 'round')]}",
             f"flowers {flowers or 'none'}"]
    if streak:
        parts.append(f"streak {streak}")
    if closing:
        parts.append("Closing")
    if events:
        parts.append(f"events {events}")
    return ", ".join(parts)


def console():
    """A rich console on stdout that never wraps a line (piped output stays one record a line)."""
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def print_bad_rows(first: list[str], n_bad: int) -> None:
    """The first bad rows' messages on stderr, and how many more there are."""
    for message in first:
        click.echo(f"bad {message}", err=True)
    if n_bad > len(first):
        click.echo(f"... and {n_bad - len(first):,} more bad rows (see the error column of the output)", err=True)


def _print_score_summary(summary, console, top: int = 10) -> None:
    """The shapes, legal share, mean payout and most frequent rows of a :class:`fastscore.jobs.ScoreSummary`."""
    import numpy as np

    from .rules import ROW_IDS, SHAPE_NAMES

    scored = summary.rows - summary.bad
    if not scored:  # no rows, or only flagged ones: no shares, means or tallies to show
        console.print("no row scored" + (f" ({summary.bad:,} flagged)" if summary.bad else ""))
        return
    shapes = count_table("shape", "shapes")
    for name, count in zip(("no win",) + SHAPE_NAMES, summary.shapes.tolist()):
        if count:
            shapes.add_row(name, f"{count:,}", share(count, scored))
    console.print(shapes)
    console.print(f"legal: {share(summary.legal, scored)} of scored rows ({summary.legal:,})")
    mean = summary.payout / scored
    # payout is 0 for every hand that is not legal: the sum is the legal hands' sum
    mean_legal = summary.payout / summary.legal if summary.legal else 0.0
    console.print(f"mean payout: {mean:.2f} per scored row, {mean_legal:.2f} per legal hand")
    if not summary.rows_tallied:
        console.print("rows by frequency: not worked out (no row columns, --rows none)")
        return
    order = np.argsort(-summary.row_hits, kind="stable")[:top]
    rows = count_table("row", f"top {top} rows by frequency")
    for r in order:
        if summary.row_hits[r]:
            rows.add_row(ROW_IDS[r], f"{int(summary.row_hits[r]):,}", share(int(summary.row_hits[r]), scored))
    console.print(rows)


def _print_waits_summary(summary, console, top: int = 10) -> None:
    """The ready share, waits counts and most waited tiles of a :class:`fastscore.jobs.WaitsSummary`."""
    import numpy as np

    from .tiles import TILE_NAMES

    scored = summary.rows - summary.bad
    ready = scored - int(summary.n_waits[0])
    waits_total = int((summary.n_waits * np.arange(35)).sum())
    console.print(f"ready: {share(ready, scored)} of analysed rows ({ready:,}); "
                  f"mean waits per ready hand {waits_total / ready if ready else 0.0:.2f}")
    counts = count_table("waits", "hands by number of waits")
    for k, count in enumerate(summary.n_waits.tolist()):
        if count:
            counts.add_row(str(k), f"{count:,}", share(count, scored))
    console.print(counts)
    order = np.argsort(-summary.tile_hits, kind="stable")[:top]
    tiles = count_table("tile", f"top {top} waited tiles")
    for t in order:
        if summary.tile_hits[t]:
            tiles.add_row(TILE_NAMES[t], f"{int(summary.tile_hits[t]):,}", share(int(summary.tile_hits[t]), scored))
    console.print(tiles)


def shanten_line(histogram, analysed: int) -> str:
    """``-1: 0.1% (12)  0: 1.2% (1,234)  ...``: a shanten histogram (index ``s + 1`` for shanten ``s``;
    :data:`fastscore.jobs.SHANTEN_BINS`) on one line, the values that occur."""
    return "  ".join(f"{s - 1}: {share(int(count), analysed)} ({int(count):,})"
                     for s, count in enumerate(histogram) if count) or "-"


def _print_shanten_summary(summary, console) -> None:
    """The shanten histogram of a :class:`fastscore.jobs.ShantenSummary` (-1 complete, 0 ready)."""
    analysed = summary.rows - summary.bad
    console.print(f"shanten (-1 complete, 0 ready)  {shanten_line(summary.shanten, analysed)}")


def _print_discards_summary(summary, console) -> None:
    """The histogram of the shanten after the best discard, and the ready discards, of a
    :class:`fastscore.jobs.DiscardsSummary`."""
    analysed = summary.rows - summary.bad
    ready = int(summary.shanten[1])  # hands a discard leaves ready
    console.print(f"shanten after the best discard (0 ready)  {shanten_line(summary.shanten, analysed)}")
    console.print(f"ready discards: {summary.ready_discards:,} "
                  f"({summary.ready_discards / ready if ready else 0.0:.2f} per hand a discard leaves ready)")


def print_summary(kind: str, summary, console) -> None:
    """The summary of a ``score``, ``waits``, ``shanten`` or ``discards`` job (:mod:`fastscore.jobs`) on ``console``."""
    {"score": _print_score_summary, "waits": _print_waits_summary, "shanten": _print_shanten_summary,
     "discards": _print_discards_summary}[kind](summary, console)


def count_table(first: str, title: str):
    """A table ``first | hands | share`` with the numbers right-aligned."""
    from rich.table import Table

    table = Table(first, "hands", "share", title=title)
    table.columns[1].justify = table.columns[2].justify = "right"
    return table


def share(count: int, total: int) -> str:
    """``count`` as a percentage of ``total`` (``-`` when there is none)."""
    return f"{100 * count / total:.1f}%" if total else "-"
