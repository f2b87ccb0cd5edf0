"""The ``fastscore`` command line: a thin layer over the public API.

Commands::

    fastscore score HAND --win TILE [--self-drawn] [--seat S] [--round R]
                    [--flowers 1f2f] [--streak N] [--closing] [--event NAME ...] [--rules FILE | --profile NAME] [--json]
    fastscore interpretations HAND --win TILE [same options as score]
    fastscore batch INPUT [-o OUTPUT [--resume]] [--rules FILE | --profile NAME] [--chunk-rows N] [--progress/--no-progress]
    fastscore batch --sample N [--seed S] [-o OUTPUT] [...]
    fastscore waits HAND [--seat S] [--round R] [--flowers ..] [--streak N] [--closing] [--event NAME ...] [--rules FILE | --profile NAME] [--json]
    fastscore waits-batch INPUT [-o OUTPUT] [...]
    fastscore waits-batch --sample N [--seed S] [-o OUTPUT] [...]
    fastscore shanten HAND [--draw TILE] [--json]
    fastscore discards HAND [--draw TILE] [--seen TILES] [context options as waits] [--json]
    fastscore shanten-batch|discards-batch INPUT|--sample N [--seed S] [-o OUTPUT] [options of batch]
    fastscore encode INPUT|--sample N [--seed S] -o OUTPUT.parquet [--waits] [--keep COLUMN[,...]] [--chunk-rows N]
    fastscore batch|waits-batch|shanten-batch|discards-batch INPUT -o FOLDER --dask ADDRESS|local:N [--overwrite]
    fastscore rules [--rules FILE | --profile NAME] [--json]
    fastscore survey -o FOLDER [--self-drawn|--discard] [--seat S] [--round R] [--flowers ..] [--win TILE|uniform]
                     [--rules FILE | --profile NAME] [--compare FILE|PROFILE] [--sample N --seed S] [--suits mps] [--no-honours]
                     [--dask ADDRESS|local:N]

Invalid input (a bad hand, tile, context value, rule table or file) prints
the message to stderr and exits with status 2.  A hand that does not win is a
result, not an error.  Numba kernels and pyarrow are imported inside the
commands that need them.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import click

from . import _display, _efficiency_cli, _rules_cli, _survey_cli
from .events import EVENT_NAMES
from .profiles import PROFILES
from ._interrupts import stop_line, stop_signals


class _Commands(click.Group):
    """The command group: Ctrl-C (or SIGTERM, SIGHUP) anywhere in a command exits 130 with one line
    on stderr (click's own handling says "Aborted!" and exits 1), however often it comes
    (:func:`fastscore._interrupts.stop_signals`)."""

    def format_commands(self, ctx, formatter):
        """Each command with its one-line summary in full (click cuts it to the terminal's width), wrapped."""
        rows = [(name, self.get_command(ctx, name).get_short_help_str(limit=1_000)) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx):
        with stop_signals():
            try:
                return super().invoke(ctx)
            except KeyboardInterrupt:
                with stop_line():
                    click.echo("interrupted", err=True)
                raise click.exceptions.Exit(130) from None


@click.group(name="fastscore", cls=_Commands, invoke_without_command=True, context_settings={"show_default": True},
             help="Score LRC-style Taiwanese 16-tile mahjong hands, one at a time or in batches "
                  "(the rules: fastscore rules, docs/rules.md).")
@click.version_option(package_name="fastscore", message="fastscore %(version)s", help="Show the version and exit.")
@click.pass_context
def app(ctx: click.Context) -> None:
    if ctx.invoked_subcommand is None:  # no command: the help on stdout, exit 2 (a usage error)
        click.echo(ctx.get_help())
        ctx.exit(2)
    # Say so when the numba kernels have never been compiled (no cache entry of fastscore/kernels/score.py
    # or batch_loops.py: fastscore._cache.kernels_compiled).
    from ._cache import first_run_notice

    notice = first_run_notice()
    if notice:
        click.echo(f"fastscore: {notice}", err=True)


#: Rows per chunk for batch commands (mirrors fastscore.io.DEFAULT_CHUNK_ROWS;
#: kept literal so that ``--help`` imports nothing heavy).
_DEFAULT_CHUNK_ROWS = 65_536

# --------------------------------------------------------------------------- options
# Each is a decorator (click makes a new parameter each time one is applied).

FILE = click.Path(dir_okay=False, path_type=Path)
hand_argument = click.argument("hand")
win_option = click.option("--win", "-w", required=True, help="The winning tile, e.g. 9s.")
self_drawn_option = click.option("--self-drawn", is_flag=True, help="Won by self-draw (default: on a discard).")
seat_option = click.option("--seat", default="E", help="Seat wind: E, S, W or N.")
round_option = click.option("--round", default="E", help="Round wind: E, S, W or N.")
flowers_option = click.option("--flowers", default="", show_default=False,
                              help="Flowers and seasons held, e.g. 1f5f (default: none).")
streak_option = click.option("--streak", default=0, help="The dealer's streak (earlier consecutive wins).")
closing_option = click.option("--closing", is_flag=True, help="Closing was declared (concealed hands only).")
events_option = click.option("--event", "events", multiple=True, type=click.Choice(EVENT_NAMES),
                             callback=lambda ctx, param, value: " ".join(value) or None,
                             help="A timing event of the win (repeat for more): " + ", ".join(EVENT_NAMES)
                                  + " (docs/rules.md, Events; scored by the Taiwanese profiles).")
_rules_file_option = click.option("--rules", type=FILE,
                                  help="A rule table TOML file (default: the lrc profile, fastscore/rules.toml).")
_profile_option = click.option("--profile", type=click.Choice(list(PROFILES)), default=None,
                               help="A packaged rule profile: " + ", ".join(PROFILES) + " (default: lrc).")


def rules_option(command):
    """``--rules FILE`` and ``--profile NAME``, given to the command as one ``rules``: the file, the
    profile's name, or None (the default profile)."""

    @functools.wraps(command)
    def with_rules(*args, profile=None, **kwargs):
        if profile is not None:
            if kwargs.get("rules") is not None:
                raise click.UsageError("give --rules FILE or --profile NAME, not both")
            kwargs["rules"] = profile
        return command(*args, **kwargs)

    return _rules_file_option(_profile_option(with_rules))


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
input_argument = click.argument("input", required=False, type=FILE)
dataset_input_argument = click.argument("input", required=False, type=click.Path(path_type=Path))
dataset_output_option = click.option("--output", "-o", type=click.Path(path_type=Path),
                                     help="Result file: .jsonl, .csv or .parquet (default: summary only); "
                                          "with --dask a folder (Parquet dataset).")
sample_option = click.option("--sample", type=click.IntRange(min=1),
                             help="Instead of INPUT, generate this many random hands.")
seed_option = click.option("--seed", type=int, help="Random seed for --sample (default 0).")
chunk_rows_option = click.option("--chunk-rows", default=_DEFAULT_CHUNK_ROWS, type=click.IntRange(min=1),
                                 help="Rows read, scored and written at a time.")
dask_option = click.option("--dask", metavar="ADDRESS|local:N",
                           help="Run on a Dask cluster: a scheduler address (tcp://host:8786) or local:N "
                                "(N worker processes here); needs dask and distributed (the dask extra).")
progress_option = click.option("--progress/--no-progress", default=None, show_default=False,
                               help="Progress bar on stderr (default: only when stderr is a terminal).")
overwrite_option = click.option("--overwrite", is_flag=True,
                                help="With --dask: replace an existing OUTPUT folder (a dataset of an earlier run); "
                                     "it stays whole until the new one is complete.")
keep_option = click.option("--keep", default="", show_default=False, metavar="COLUMN[,COLUMN...]",
                           help="Input columns fastscore does not read (game_id, seed) to copy into the output, "
                                "first, row for row; any other such column is an error.")
rows_option = click.option("--rows", "rows", type=click.Choice(["dense", "sparse", "none"]), default=None,
                           help="The row points in OUTPUT: dense, one int16 column row_<id> per row "
                                "(default for CSV and Parquet); sparse, one column rows of the rows that "
                                "scored (a map; default for JSON lines); none, the totals only (the rows are "
                                "not worked out: faster).")
waits_json_option = click.option("--waits-json", "waits_json", is_flag=True,
                                 help="Also write the column waits_json, the JSON text "
                                      "{tile: {discard, self_draw}} (waits is always written).")
resume_option = click.option("--resume", is_flag=True,
                             help="Continue an interrupted run with the same INPUT (or --sample and --seed), rules "
                                  "and OUTPUT from its last completed chunk; the output is the same as an "
                                  "uninterrupted run's.")


def _apply(command, options):
    """``command`` with ``options`` (click decorators), in the order listed."""
    for option in reversed(options):
        command = option(command)
    return command


def _hand_options(*, win: bool, events: bool = True):
    """HAND (with --win and --self-drawn for a win) and the context options of ``score``,
    ``interpretations`` and ``waits`` (and, without ``events``, ``discards``)."""
    options = [hand_argument, win_option, self_drawn_option] if win else [hand_argument]
    options += [seat_option, round_option, flowers_option, streak_option, closing_option]
    options += [events_option] if events else []
    options += [rules_option, json_option]
    return lambda command: _apply(command, options)


def _batch_options(command):
    """INPUT and the options shared by ``batch``, ``waits-batch``, ``shanten-batch`` and ``discards-batch``."""
    return _apply(command, [dataset_input_argument, dataset_output_option, sample_option, seed_option, rules_option,
                            chunk_rows_option, progress_option, dask_option, overwrite_option,
                            resume_option, keep_option])


def _seed(sample: int | None, seed: int | None) -> int:
    """The seed of --sample (0 when not given); exit 2 when --seed comes without --sample, where it
    would be ignored."""
    if seed is not None and sample is None:
        _fail("--seed goes with --sample N (it seeds the random hands)")
    return 0 if seed is None else seed


_fail = _display.fail
_rule_table = _display.rule_table


# --------------------------------------------------------------------------- single hands


@app.command()
@_hand_options(win=True)
def score(hand: str, win: str, self_drawn: bool, rules: Path | None, as_json: bool, **context) -> None:
    """Score one winning hand: its rows, points, Chicken, legality, total and payout.

    HAND: the 16 tiles before the win, e.g. '11m99m77p11s9s EE RR 333p' (hand notation: docs/formats.md).
    """
    from .score import score as score_hand

    table = _rule_table(rules)
    try:
        result = score_hand(hand, win, self_drawn=self_drawn, rules=table, **context)
    except ValueError as exc:
        _fail(str(exc))
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
        return
    from rich.markup import escape
    from rich.table import Table

    console = _display.console()
    console.print(f"{_display.hand_line(hand, win, self_drawn)}; {_display.context_line(**context)}")
    if not result.is_win:
        console.print(f"not a winning hand: no interpretation completes it with {win}; payout 0")
        return
    lrc = table.name == "lrc"
    rows = Table("row", "points", "source (LRC rules section)" if lrc else f"source (profile {table.name})")
    rows.columns[1].justify = "right"
    for rid, points in result.rows.items():  # e.g. "4.6 [seed]" (escaped: not rich markup); see `fastscore rules`
        rows.add_row(rid, str(points), escape(table.sources.get(rid, "").removeprefix("LRC rules, section ")))
    console.print(rows)
    minimum = int(table.minimum[_display.wind(context["round"], "round")])
    console.print(f"shape    {result.shape}")
    console.print(f"points   {result.points}" + ("  (Chicken)" if result.chicken else ""))
    console.print(f"total    {result.total}  ({'legal' if result.legal else 'not legal'}: round minimum {minimum})")
    console.print(f"payout   {result.payout}")


@app.command()
@_hand_options(win=True)
def interpretations(hand: str, win: str, self_drawn: bool, rules: Path | None, as_json: bool, **context) -> None:
    """List every interpretation of one winning hand with its groups, rows, points and payout.

    HAND: the 16 tiles before the win, e.g. '11m99m77p11s9s EE RR 333p' (hand notation: docs/formats.md).
    * marks the interpretation the hand scores; with --json it is the one with "scores": true.
    """
    from .score import interpretations as all_interpretations
    from .score import score as score_hand

    table = _rule_table(rules)
    kwargs = dict(self_drawn=self_drawn, rules=table, **context)
    try:
        found = all_interpretations(hand, win, **kwargs)
        best = score_hand(hand, win, **kwargs)
    except ValueError as exc:
        _fail(str(exc))
    marked = False
    for item in found:  # the first interpretation with the best's shape, rows and total is the one scored
        item["scores"] = not marked and (item["shape"], item["rows"], item["total"]) == (best.shape, best.rows,
                                                                                          best.total)
        marked = marked or item["scores"]
    if as_json:
        click.echo(json.dumps(found, indent=2))
        return
    click.echo(f"{_display.hand_line(hand, win, self_drawn)}; {_display.context_line(**context)}")
    if not found:
        click.echo(f"not a winning hand: no interpretation completes it with {win}")
        return
    for k, item in enumerate(found, start=1):
        click.echo(f"{'*' if item['scores'] else ' '} {k}. {item['shape']}: {' '.join(item['groups'])}")
        click.echo("     rows: " + ", ".join(f"{rid} {p}" for rid, p in item["rows"].items()))
        click.echo(f"     points {item['points']}{' (Chicken)' if item['chicken'] else ''}, total {item['total']}, "
                   f"{'legal' if item['legal'] else 'not legal'}, payout {item['payout']}")
    click.echo(f"{len(found)} interpretation(s); * marks the one the hand scores")


@app.command()
@_hand_options(win=False)
def waits(hand: str, rules: Path | None, as_json: bool, **context) -> None:
    """The waits of a 16-tile hand: each completing tile with its payout on a discard and on a self-draw.

    HAND: the 16 tiles, e.g. '11m99m77p11s9s EE RR 33p' (hand notation: docs/formats.md).
    """
    from .waits import waits as waits_one

    table = _rule_table(rules)
    try:
        result = waits_one(hand, rules=table, **context)
    except ValueError as exc:
        _fail(str(exc))
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    tiles = result
    from rich.table import Table

    console = _display.console()
    console.print(f"{hand}; {_display.context_line(**context)}")
    if not tiles:
        console.print("not ready: no tile completes the hand")
        return
    out = Table("tile", "discard payout", "self-draw payout")
    out.columns[1].justify = out.columns[2].justify = "right"
    for tile, payouts in tiles.items():
        out.add_row(tile, str(payouts["discard"]), str(payouts["self_draw"]))
    console.print(out)
    console.print(f"{len(tiles)} wait(s)")


# --------------------------------------------------------------------------- batches


@app.command()
@rules_option
def warmup(rules: Path | None) -> None:
    """Compile every kernel now (or load it from the cache), for cluster workers and CI images."""
    from .warmup import warmup as run_warmup

    click.echo(f"kernels ready in {run_warmup(_rule_table(rules)):.1f} s")


def _disable(progress: bool | None) -> bool | None:
    """``--progress/--no-progress`` as :func:`fastscore._progress.progress_bar`'s ``disable`` (None: stderr a terminal)."""
    return None if progress is None else not progress


def _kept_parts(writer, interrupted: bool) -> bool:
    """After a run stopped early (Ctrl-C, or an error): say on stderr which rows its parts folder keeps
    for --resume, if any (:func:`fastscore.jobs.kept_parts_message`); False when it keeps none."""
    from .jobs import kept_parts_message

    message = kept_parts_message(writer, interrupted)
    if message:
        click.echo(message, err=True)
    return message is not None


def _no_thread(exc: BaseException) -> bool:
    from .jobs import no_thread

    return no_thread(exc)


def _stop_message(exc: BaseException, output: Path | None) -> str:
    from .jobs import stop_message

    return stop_message(exc, output)


def _run_batch(
    *,
    kind: str,
    input: Path | None,
    output: Path | None,
    sample: int | None,
    seed: int,
    rules: Path | None,
    chunk_rows: int,
    progress: bool | None,
    resume: bool = False,
    keep: str = "",
    rows: str | None = None,
    waits_json: bool = False,
) -> None:
    """The shared body of the batch commands: :class:`fastscore.jobs.BatchJob`, its messages and summary.

    With OUTPUT the file is written resumably (:mod:`fastscore.io.parts`): each chunk to a
    part file, joined at the end; ``resume`` takes up an interrupted run's parts.
    """
    if (input is None) == (sample is None):
        _fail("give either INPUT or --sample N (not both)" if input is not None else "give INPUT or --sample N")
    if resume and output is None:
        _fail("--resume needs -o OUTPUT, the output of the interrupted run")
    from . import jobs
    from ._progress import progress_bar

    table = _rule_table(rules)
    try:
        job = jobs.BatchJob(kind, input=input, output=output, sample=sample, seed=seed, table=table,
                            chunk_rows=chunk_rows, resume=resume, keep=keep.split(",") if keep else (),
                            rows=rows, waits_json=waits_json)
        job.open()
    except (ValueError, OSError) as exc:
        _fail(_stop_message(exc, output))
    except MemoryError:
        _fail(_stop_message(MemoryError(), output))
    writer, first = job.writer, job.first
    if writer is not None and writer.removed_parts:
        click.echo(f"removed {writer.parts_path}, the parts of an interrupted run (--resume continues one)", err=True)
    if resume and first:
        click.echo(f"resuming at row {first:,} (rows before it are kept from the interrupted run; "
                   f"the counts below are of this run's rows)", err=True)
    elif resume:
        click.echo(f"nothing to resume for {output}: starting at the first row", err=True)
    try:
        with progress_bar(job.total, disable=_disable(progress), initial=first) as bar:
            job.run(progress=bar)
    except (ValueError, OSError, MemoryError) as exc:
        _kept_parts(writer, interrupted=False)
        _fail(_stop_message(exc, output))
    except RuntimeError as exc:
        if not _no_thread(exc):
            raise
        _kept_parts(writer, interrupted=False)
        _fail(_stop_message(exc, output))
    except KeyboardInterrupt:
        with stop_line():
            if not _kept_parts(writer, interrupted=True):
                click.echo("interrupted", err=True)
        raise click.exceptions.Exit(130) from None

    summary = job.summary
    console = _display.console()
    _display.print_bad_rows(summary.first_errors, summary.bad)
    console.print(_display.totals_line(summary.rows, summary.bad, job.seconds))
    if output is not None:
        console.print(f"wrote {output}")
    _display.print_summary(kind, summary, console)


def _batch_command(kind: str, *, input: Path | None, output: Path | None, sample: int | None, seed: int | None,
                   rules: Path | None, chunk_rows: int, progress: bool | None, dask: str | None,
                   overwrite: bool, resume: bool, keep: str, rows: str | None = None,
                   waits_json: bool = False) -> None:
    """``batch`` (``kind="score"``), ``waits-batch`` (``"waits"``), ``shanten-batch`` (``"shanten"``) and
    ``discards-batch`` (``"discards"``): on this machine or with --dask."""
    seed = _seed(sample, seed)
    if dask is not None and resume:
        _fail("--resume is for single-machine runs; a Dask job reruns lost tasks itself")
    if dask is None and overwrite:
        _fail("--overwrite goes with --dask (an existing OUTPUT folder); without --dask OUTPUT is a file, "
              "always replaced whole when the run completes")
    if dask is not None:
        from ._cli_dask import run_dask

        return run_dask(kind=kind, address=dask, input=input, output=output, sample=sample, rules=rules,
                         chunk_rows=chunk_rows, progress=progress, overwrite=overwrite, keep=keep, rows=rows,
                         waits_json=waits_json)
    _no_folders(input, output)
    _run_batch(kind=kind, input=input, output=output, sample=sample, seed=seed, rules=rules,
               chunk_rows=chunk_rows, progress=progress, resume=resume, keep=keep, rows=rows, waits_json=waits_json)


@app.command()
@_batch_options
@rows_option
def batch(**options) -> None:
    """Score every hand of INPUT (or --sample N random winning hands), chunk by chunk.

    INPUT: hand records, .jsonl, .csv or .parquet (columns hand, win,
    self_drawn, seat, round, flowers, streak, closing, events; or hands written by
    fastscore encode); with --dask a .parquet file or a folder of them.

    Writes one result row per input row, in input order, to OUTPUT when given;
    always prints rows, bad rows, hands per second and a summary.  Bad rows
    are flagged in the output and do not stop the run.  Output columns (the
    same in every format): is_win, shape, points, chicken, total, legal,
    payout, error, then the row points (--rows: row_<id> columns, or one
    rows map, or none); with --sample each generated hand's columns (as
    input) come first.

    OUTPUT is written chunk by chunk to a hidden .OUTPUT.parts folder and
    appears only when complete.  After an interruption (Ctrl-C, a killed
    process) run the same command with --resume to continue from the last
    completed chunk; the result is the same file an uninterrupted run writes.

    With --dask the chunks (--chunk-rows rows of whole Parquet row groups) are
    Dask tasks, and OUTPUT is a folder of part.<i>.parquet files with the
    schema of the single-machine Parquet output and an empty _SUCCESS file.
    It is written as a hidden .OUTPUT.partial-<token> folder and renamed to
    OUTPUT when complete: an interrupted run leaves no OUTPUT (or the old one
    whole), and is run again from the start.  An existing OUTPUT folder is
    replaced only with --overwrite.
    """
    _batch_command("score", **options)


@app.command("waits-batch")
@_batch_options
@waits_json_option
def waits_batch(**options) -> None:
    """Waits of every 16-tile hand of INPUT (or --sample N random ready hands), chunk by chunk.

    Like batch (INPUT the same records); the win column is not needed.  Output columns:
    n_waits, waits (a list of {tile, discard, self_draw}; CSV: its JSON text),
    with --waits-json also waits_json, then error; with --sample the generated
    hand's columns (as input, without win) come first.
    """
    _batch_command("waits", **options)


@app.command()
@input_argument
@click.option("--output", "-o", required=True, type=FILE, help="Encoded hands: a .parquet file.")
@click.option("--waits", is_flag=True, help="16-tile hands for waits-batch: no winning tile "
                                            "(default: hands to score, win required).")
@sample_option
@seed_option
@chunk_rows_option
@keep_option
def encode(
    output: Path,
    input: Path | None,
    waits: bool,
    sample: int | None,
    seed: int | None,
    chunk_rows: int,
    keep: str,
) -> None:
    """Parse INPUT once (or generate --sample N hands) and write the hands as columns
    (tile counts, declared sets, context) to OUTPUT.

    INPUT: hand records, .jsonl, .csv or .parquet (columns hand, win,
    self_drawn, seat, round, flowers, streak, closing, events).

    batch and waits-batch read such a file without parsing (fastscore.io.ENCODED_COLUMNS).
    A bad record is kept as a flagged row with its message, so that the results
    are those of INPUT.  --keep copies ID columns after the hands (score with
    batch --keep the same).  --sample writes random winning hands, or with --waits ready ones.
    """
    from .jobs import encode_hands

    if (input is None) == (sample is None):
        _fail("give either INPUT or --sample N (not both)" if input is not None else "give INPUT or --sample N")
    seed = _seed(sample, seed)
    try:
        rows, bad = encode_hands(output, input=input, sample=sample, seed=seed, waits=waits, chunk_rows=chunk_rows,
                                 keep=keep.split(",") if keep else ())
    except (ValueError, OSError, MemoryError) as exc:
        _fail(_stop_message(exc, output))
    click.echo(f"rows: {rows:,}  bad rows: {bad:,}\nwrote {output}")


# --------------------------------------------------------------------------- Dask


def _no_folders(input: Path | None, output: Path | None) -> None:
    """Without --dask, INPUT and OUTPUT are files."""
    for what, path in (("INPUT", input), ("OUTPUT", output)):
        if path is not None and path.is_dir():
            _fail(f"{path}: {what} is a folder; only --dask reads and writes Parquet datasets (folders)")


_efficiency_cli.add_commands(app, hand_options=_hand_options, hand_argument=hand_argument, json_option=json_option,
                             rules_option=rules_option, batch_options=_batch_options, batch_command=_batch_command)
_survey_cli.add_command(app, options=dict(rules=rules_option, seed=seed_option, progress=progress_option,
                                          dask=dask_option, file=FILE), seed=_seed)
_rules_cli.add_command(app, rules_option=rules_option, json_option=json_option)


def main() -> None:  # pragma: no cover - console entry point alias
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
