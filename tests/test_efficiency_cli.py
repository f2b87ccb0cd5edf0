"""``fastscore shanten`` and ``fastscore discards`` (fastscore/_efficiency_cli.py), through click's CliRunner."""

from __future__ import annotations

import json

from click.testing import CliRunner

from fastscore.cli import app

runner = CliRunner()


def test_shanten_prints_best_and_each_shape():
    result = runner.invoke(app, ["shanten", "123m456p789s11z 2345s 9m"])
    assert result.exit_code == 0, result.output
    assert "shanten 1  (1 exchange from ready)" in result.output
    assert "nico nico         7" in result.output


def test_shanten_json_with_a_draw():
    result = runner.invoke(app, ["shanten", "123m456p789s11z 2345s 9m", "--draw", "1z", "--json"])
    assert json.loads(result.output) == {"shanten": 0, "standard": 0, "nico_nico": 6, "thirteen_orphans": 8,
                                         "sixteen_orphans": 8}


def test_shanten_declared_sets_show_no_special_shape():
    result = runner.invoke(app, ["shanten", "[123m][456m][789m][EEE] 1p2p3p4p"])
    assert "shanten 0  (ready)" in result.output and "sixteen orphans   -" in result.output


def test_discards_table_lists_the_best_discard_first():
    # See tests/test_discards.py::test_worked_hand: discarding 9m waits on 2s and 5s (four live tiles).
    result = runner.invoke(app, ["discards", "123m456p789s11z 2345s 9m 1z", "--seen", "5s5s"])
    assert result.exit_code == 0, result.output
    first = next(line for line in result.output.splitlines() if line.startswith("│"))
    assert first.split("│")[1].strip() == "9m" and first.split("│")[4].strip() == "4"


def test_discards_json():
    result = runner.invoke(app, ["discards", "123m456p789s11z 2345s 9m", "--draw", "1z", "--json"])
    rows = json.loads(result.output)
    assert rows[0]["discard"] == "9m" and rows[0]["live"] == 6 and set(rows[0]["waits"]) == {"2s", "5s"}


def test_bad_hand_exits_2_naming_the_token():
    result = runner.invoke(app, ["discards", "123m456p789s11z 2345s 9x"])
    assert result.exit_code == 2 and "'9x'" in result.output
    result = runner.invoke(app, ["shanten", "123m456p789s11z 2345s"])
    assert result.exit_code == 2 and "15 tiles" in result.output
