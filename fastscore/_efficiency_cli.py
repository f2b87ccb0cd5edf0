"""The ``fastscore shanten``, ``discards``, ``shanten-batch`` and ``discards-batch`` commands, added to the
command group by :func:`add_commands`.

Commands::

    fastscore shanten HAND [--draw TILE] [--rules FILE | --profile NAME] [--json]
    fastscore discards HAND [--draw TILE] [--seen TILES] [--seat S] [--round R] [--flowers ..]
                       [--streak N] [--closing] [--rules FILE | --profile NAME] [--json]
    fastscore shanten-batch INPUT|--sample N [--seed S] [-o OUTPUT] [options of batch]
    fastscore discards-batch INPUT|--sample N [--seed S] [-o OUTPUT] [options of batch]

HAND is 16 tiles (17 with ``--draw``), or 17 tiles written out (hand notation: docs/formats.md).
The batch commands are :func:`fastscore.cli._batch_command` of the kinds ``"shanten"`` and ``"discards"``
(:mod:`fastscore.jobs`), with the options of ``batch`` (INPUT, -o, --sample, --keep, --resume, --dask ...).
Invalid input prints the message to stderr and exits with status 2, as the other commands.
The command line's shared helpers are passed in by :mod:`fastscore.cli` (this module does not import
it, so that ``python -m fastscore.cli`` works too).
"""

from __future__ import annotations

import json

import click

from . import _display

__all__ = ["add_commands"]

draw_option = click.option("--draw", "-d", help="The drawn tile (the 17th), e.g. 5p; or write 17 tiles in HAND.")


def _meaning(value: int) -> str:
    return "complete" if value < 0 else "ready" if value == 0 else f"{value} exchange{'s' * (value > 1)} from ready"


def add_commands(app: click.Group, *, hand_options, hand_argument, json_option, rules_option, batch_options,
                 batch_command):
    """Define ``shanten``, ``discards``, ``shanten-batch`` and ``discards-batch`` with the command line's option
    helpers and its batch body (:mod:`fastscore.cli`: ``_batch_options``, ``_batch_command``) and add them
    to ``app``."""
    _context_line, _fail, _hand_options, _rule_table = _display.context_line, _display.fail, hand_options, \
        _display.rule_table

    @click.command("shanten")
    @hand_argument
    @draw_option
    @rules_option
    @json_option
    def shanten_command(hand: str, draw: str | None, rules, as_json: bool) -> None:
        """Shanten of a hand: exchanges from ready (0 ready, -1 complete), best and per shape.

        HAND: 16 tiles, or 17 after the draw, e.g. '123m456p789s11z 2345s 9m' (hand notation: docs/formats.md).
        Only the shapes that win under the rule table count (the Taiwanese profiles: the standard shape).
        """
        from .efficiency import SHAPE_NAMES, shanten

        table = _rule_table(rules)
        try:
            result = shanten(hand, draw, rules=table)
        except ValueError as exc:
            _fail(str(exc))
        if as_json:
            click.echo(json.dumps(result._asdict(), indent=2))
            return
        click.echo(hand + (f" + {draw}" if draw else ""))
        click.echo(f"shanten {result.shanten}  ({_meaning(result.shanten)})")
        for name in SHAPE_NAMES:
            value = getattr(result, name)
            click.echo(f"  {name.replace('_', ' '):17} {'-' if value is None else value}")


    @click.command("discards")
    @_hand_options(win=False, events=False)
    @draw_option
    @click.option("--seen", default=None, help="Tiles seen elsewhere (discards, others' sets), e.g. 5s5s1z.")
    def discards_command(hand: str, draw: str | None, seen: str | None, rules, as_json: bool, **context) -> None:
        """Every discard of a 17-tile hand: shanten after it, useful draws and their live copies, and for a
        ready discard its waits and the expected payout per live tile.

        HAND: 17 tiles, or 16 with --draw, e.g. '123m456p789s11z 2345s 9m' --draw 1z
        (hand notation: docs/formats.md).
        """
        from .efficiency import discards

        table = _rule_table(rules)
        try:
            rows = discards(hand, draw, seen=seen, rules=table, **context)
        except ValueError as exc:
            _fail(str(exc))
        if as_json:
            click.echo(json.dumps(rows, indent=2))
            return
        from rich.table import Table

        console = _display.console()
        console.print(f"{hand}{f' + {draw}' if draw else ''}; {_context_line(**context)}"
                      + (f"; seen {seen}" if seen else ""))
        out = Table("discard", "shanten", "useful draws", "live", "waits: payout d/s", "mean d/s",
                    caption="live: copies of the useful draws not held or seen; payouts on a discard (d) and "
                            "by self-draw (s); mean: per live waiting tile")
        out.columns[1].justify = out.columns[3].justify = "right"
        for row in rows:
            waits = " ".join(f"{t} {p['discard']}/{p['self_draw']}" for t, p in row["waits"].items())
            expected = f"{row['expected_discard']:.1f}/{row['expected_self_draw']:.1f}" if row["waits"] else ""
            out.add_row(row["discard"], str(row["shanten"]), " ".join(row["useful"]), str(row["live"]), waits, expected)
        console.print(out)

    @click.command("shanten-batch")
    @batch_options
    def shanten_batch_command(**options) -> None:
        """Shanten of every hand of INPUT (or --sample N hands dealt from a shuffled wall), chunk by chunk.

        Like batch (INPUT the same records, --keep, --resume and --dask the same); a row
        without win is a 16-tile hand, a row with one a 17-tile hand, win being the drawn
        tile.  Output columns (int8): shanten (the best: 0 ready, -1 complete),
        shanten_standard, shanten_nico_nico, shanten_thirteen_orphans,
        shanten_sixteen_orphans (null where the hand cannot take the shape or the shape
        does not win under --rules/--profile, and in bad rows), then error; with --sample
        each dealt 16-tile hand's columns (as input, without win) come first.
        """
        batch_command("shanten", **options)

    @click.command("discards-batch")
    @batch_options
    def discards_batch_command(**options) -> None:
        """Every discard of every 17-tile hand of INPUT (or --sample N 17-tile hands dealt from a shuffled wall).

        Like batch (INPUT the same records, --keep, --resume and --dask the same); win,
        required, is the drawn tile, and the context columns (seat, round, flowers,
        streak, closing) set the payouts of the waits.  No tile counts as seen (the
        discards command's --seen has no batch form).  Output columns: shanten (int8,
        after the best discard), discards (one entry per held kind, in tile order:
        {tile, shanten, useful, live_useful, waits: [{tile, discard, self_draw}],
        expected_discard, expected_self_draw}; CSV: its JSON text), error; with --sample
        each dealt hand's columns (as input) come first.
        """
        batch_command("discards", **options)

    app.add_command(shanten_command)
    app.add_command(discards_command)
    app.add_command(shanten_batch_command)
    app.add_command(discards_batch_command)
