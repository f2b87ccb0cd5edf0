"""The ``fastscore rules`` command, added to the command group by :func:`add_command`.

Command::

    fastscore rules [--rules FILE | --profile NAME] [--json]

Prints the rule table fastscore scores by (the packaged one, or a user's
``--rules`` file): each row's id, points, the rows it replaces, the shapes
that take it, when it scores and where it comes from, then the totals.  The
rules are explained in the project's own words in ``docs/rules.md``.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from . import _display

__all__ = ["add_command"]

#: Short names of the shapes in the printed table (``--json`` gives the full names).
_SHAPES = {"standard": "std", "nico_nico": "nico", "thirteen_orphans": "13o", "sixteen_orphans": "16o"}


def add_command(app: click.Group, *, rules_option, json_option) -> None:
    """Define ``rules`` with the command line's ``--rules`` and ``--json`` options and add it to ``app``."""

    @click.command("rules")
    @rules_option
    @json_option
    def rules(rules: Path | None, as_json: bool) -> None:
        """Print the rule table: each row's points, what it replaces, its shapes, when it scores, its source.

        Shapes: std (standard), nico (Nico Nico), 13o (13 Orphans), 16o (16 Orphans); 'all' for the four.
        A row scores its points when its condition holds, its shape takes it and no scoring row replaces
        it.  --json prints the same table as JSON for tools (full shape names).
        """
        data = _display.rule_table(rules).to_dict()
        if as_json:
            click.echo(json.dumps(data, indent=2))
            return
        header = ("row", "points", "replaces", "shapes", "scores when", "source")
        lines = [header]
        for row in data["rows"]:
            points = row["points"]
            shapes = "all" if len(row["shapes"]) == len(_SHAPES) else " ".join(_SHAPES[s] for s in row["shapes"])
            lines.append((row["id"], "/".join(map(str, points)) if isinstance(points, list) else str(points),
                          " ".join(row["replaces"]) or "-", shapes or "-", row["condition"] or "-", row["source"]))
        # Plain aligned columns, one row a line, whatever the terminal's width (a pipe gets whole lines).
        widths = [max(len(line[k]) for line in lines) for k in range(len(header) - 1)]
        profile = data["profile"]
        if rules is None:
            click.echo("rule table: the packaged default, profile lrc (fastscore/rules.toml; --profile NAME or "
                       "--rules FILE for another)")
        elif isinstance(rules, str):
            click.echo(f"rule table: profile {profile['name']}" + (f", {profile['title']}" if profile["title"] else ""))
        else:
            click.echo(f"rule table {data['path']}")
        for line in lines:
            cells = [cell.rjust(w) if k == 1 else cell.ljust(w) for k, (cell, w) in enumerate(zip(line, widths))]
            click.echo("  ".join(cells + [line[-1]]))
        minimum = data["totals"]["minimum"]
        chicken = (f"; a Chicken is exactly {data['totals']['chicken_points']} point(s)" if data["totals"]["chicken"]
                   else "; no Chicken rule")
        click.echo("round minimum (points, base included): "
                   + ", ".join(f"{wind} {value}" for wind, value in minimum.items()) + chicken)
        payout = data["payout"]
        if (payout["base"], payout["unit"]) != (0, 1):
            click.echo(f"payout of a legal win: {payout['base']} + {payout['unit']} x total")
        click.echo("shapes that win: " + ", ".join(name.replace("_", " ") for name in data["win"]["shapes"]))
        if data["totals"]["double_interpretation"]:
            click.echo("double interpretation: a hand that is both Nico Nico and standard scores both readings "
                       "added; counted once: " + (" ".join(data["totals"]["counted_once"]) or "-"))

    app.add_command(rules)
