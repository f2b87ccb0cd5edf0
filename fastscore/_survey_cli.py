"""The ``fastscore survey`` command, added to the command group by :func:`add_command`.

Command::

    fastscore survey -o FOLDER [--self-drawn|--discard] [--seat S] [--round R] [--flowers ..] [--win TILE|uniform]
                     [--rules FILE | --profile NAME] [--compare FILE|PROFILE] [--sample N --seed S] [--suits mps] [--no-honours]
                     [--dask ADDRESS|local:N]

The command line's shared options are passed in by :mod:`fastscore.cli` (this module does not import it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import _display

__all__ = ["add_command"]


def add_command(app: click.Group, *, options: dict, seed) -> None:
    """Define ``survey`` with the command line's shared options (``options``: rules, seed, progress, dask
    decorators and the FILE type) and its --seed check ``seed``, and add it to ``app``."""
    check_seed = seed

    @click.command("survey")
    @click.option("--output", "-o", required=True, type=click.Path(file_okay=False, path_type=Path),
                  help="Folder for report.md, the PNG plots and survey.parquet: a new or empty folder, or an "
                       "earlier report, replaced whole when the new one is complete.")
    @click.option("--self-drawn/--discard", default=None, show_default=False,
                  help="Every win self-drawn, or every win on a discard (default: on a discard; with --sample, "
                       "each hand's own).")
    @click.option("--seat", help="Seat wind E, S, W or N (default: E; with --sample, each hand's own).")
    @click.option("--round", help="Round wind E, S, W or N (default: E; with --sample, each hand's own).")
    @click.option("--flowers", help="Flowers and seasons held, e.g. 1f5f, or '' for none (default: none; with "
                                    "--sample, each hand's own).")
    @click.option("--win", "-w", default="uniform", help="'uniform' (the winning tile drawn uniformly from the "
                                                          "hand's tiles; with --sample, each hand's own, which the "
                                                          "sampler drew so) or a tile such as 9s (hands holding it).")
    @options["rules"]
    @click.option("--compare", type=str, metavar="FILE|PROFILE",
                  help="A second rule table, a TOML file or a profile name (lrc, taiwan, taiwan-zhaishenye, ...: "
                       "fastscore.profiles.PROFILES): score every hand under both and compare.")
    @click.option("--sample", type=click.IntRange(min=1), help="Survey this many random winning hands instead of "
                                                                "every complete concealed standard hand.")
    @options["seed"]
    @click.option("--suits", default="mps", help="Number suits of the exhaustive space, a subset of mps.")
    @click.option("--honours/--no-honours", default=True, help="Allow winds and dragons in the exhaustive space.")
    @click.option("--chunk-rows", default=1 << 16, type=click.IntRange(min=1),
                  help="Hands scored at a time (memory, not results).")
    @options["progress"]
    @options["dask"]
    def survey(
        output: Path,
        self_drawn: bool | None,
        seat: str | None,
        round: str | None,
        flowers: str | None,
        win: str,
        rules: Path | None,
        compare: str | None,
        sample: int | None,
        seed: int | None,
        suits: str,
        honours: bool,
        chunk_rows: int,
        progress: bool | None,
        dask: str | None,
    ) -> None:
        """Tally rows, shapes, Chicken, illegal wins and payouts over every complete concealed
        standard hand (118,856,487 count vectors), or over --sample N random winning hands.

        Writes OUTPUT/report.md with payout and row-frequency plots (and a comparison
        with --compare) and OUTPUT/survey.parquet with the exact tallies; prints the
        ten most frequent rows and the wall time.  OUTPUT is written as a hidden
        folder beside it and renamed when complete: an interrupted run leaves an
        earlier report whole; a folder holding other files is refused.

        With --sample every hand counts once, scored on its own winning tile with its
        own self-draw, seat, round and flowers, except those that --self-drawn/--discard,
        --seat, --round, --flowers or --win TILE fix (streak 0, no Closing).

        With --dask the hands are cut into ranges of 2,097,152, one task each,
        and the workers' exact tallies are added up: the same report as on one machine.
        """
        from .rules import ROW_IDS
        from .survey import plan_survey
        from .survey import survey as run_survey

        seed = check_seed(sample, seed)
        table = _display.rule_table(rules)
        other = _display.rule_table(compare) if compare is not None else None
        show = progress if progress is not None else sys.stderr.isatty()
        options = dict(self_drawn=self_drawn, seat=seat, round=round, flowers=flowers, win=win, rules=table,
                       compare=other, sample=sample, seed=seed, suits=suits, honours=honours, chunk_rows=chunk_rows)
        try:
            from .survey.report import check_folder

            check_folder(output)  # a folder the report may not replace fails here, before the survey runs
            if dask is None:
                result = run_survey(**options, progress=show)
            else:
                plan_survey(**options)  # bad options fail here, before any cluster starts
                from . import dask as fdask
                import distributed

                from ._cli_dask import dask_session

                with dask_session(dask) as client:
                    try:
                        result = fdask.survey(client=client, progress=show, **options)
                    except distributed.KilledWorker as exc:
                        _display.fail(str(exc))
            page = result.report(output)
        except (ImportError, ValueError, OSError) as exc:
            _display.fail(str(exc))
        console = _display.console()
        console.print(f"hands: {result.hands:,}  scorings: {result.scorings:,}  wall time: {result.seconds:.1f} s  "
                      f"scorings per second: {result.scorings / result.seconds if result.seconds else 0.0:,.0f}")
        weighted = not result.sampled
        if weighted:
            rows = _display.count_table("row", "top 10 rows by frequency (weighted by multiplicity)")
            rows.columns[1].header, rows.columns[2].header = "unweighted share", "weighted share"
        else:
            rows = _display.count_table("row", "top 10 rows by frequency")
            rows.columns[1].header, rows.columns[2].header = "sampled hands", "share"
        unweighted = result.row_frequency(weighted=False)
        for rid, share in result.top_rows(10, weighted):
            count = int(result.tally.rows[0, ROW_IDS.index(rid)])
            first = f"{100 * unweighted[rid]:.2f}%" if weighted else f"{count:,}"
            rows.add_row(rid, first, f"{100 * share:.2f}%")
        console.print(rows)
        console.print(f"Chicken: {100 * result.chicken_fraction(weighted):.2f}%  below the minimum: "
                      f"{100 * result.illegal_fraction(weighted):.2f}%" + ("  (weighted)" if weighted else ""))
        console.print(f"wrote {page}")

    app.add_command(survey)
