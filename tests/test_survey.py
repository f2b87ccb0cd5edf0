"""Surveys (fastscore/survey/): exact tallies against a hand-by-hand brute force, determinism, plots, CLI.

The brute force scores every (hand, winning kind) of a small space one at a
time, with ``fastscore.score`` or ``tests/reference.py``'s ``reference.score``,
and tallies in Python integers.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import fastscore
import reference
from strategies import counts
from threads import outputs_by_thread_count
from fastscore.cli import app
from fastscore.enumerate import enumerate_hands
from fastscore.rules import ROW_IDS
from fastscore.sample import sample_winning
from fastscore.survey import (
    SHAPE_KEYS,
    SurveyPart,
    Tally,
    plot_compare,
    plot_payout,
    plot_rows,
    plan_survey,
    survey,
    survey_range,
)
from fastscore.survey.report import _pct, markdown
from fastscore.tiles import TILE_NAMES, WINDS, SetKind, format_counts, format_set

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "fastscore" / "rules.toml"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


#: Small spaces: (suits, honours, fixed tiles).
MIXED = ("mps", True, "123m456p789s11z55m")  # 162 hands: all five suits, mixed dragon, East pairs and pongs
BAMBOO = ("s", False, "1112345678999s")  # 207 hands: pure, pure dragon, step-up pure
HONOURS = ("", True, "")  # the 42 all-honours hands
TWO_SUITS = ("mp", True, "123m345p333z66p5m")  # 330 hands: a West pong, so Chickens on a discard


def space_options(space) -> dict:
    suits, honours, fixed = space
    return dict(suits=suits, honours=honours, fixed=counts(fixed) if fixed else None)


@pytest.fixture(scope="module")
def variant_rules(tmp_path_factory) -> Path:
    """The packaged table with no concealment points and a higher minimum: Chickens and illegal wins appear."""
    text = RULES.read_text()
    for rid, points in (("concealed_hand", 0), ("concealed_self_draw", 0), ("single_wait", 3)):
        text, n = re.subn(rf'(id = "{rid}"\npoints = )\d+', rf"\g<1>{points}", text)
        assert n == 1, rid
    text, n = re.subn(r"minimum = \[20, 22, 24, 26\]", "minimum = [30, 32, 34, 36]", text)
    assert n == 1
    path = tmp_path_factory.mktemp("rules") / "variant.toml"
    path.write_text(text)
    return path


# --------------------------------------------------------------------------- brute force


def brute_force(space, *, win="uniform", score_one, **context) -> Tally:
    """Score every (hand, winning kind) of the space one by one and tally in Python ints."""
    total = [0, 0]
    rows = [[0] * len(ROW_IDS) for _ in range(2)]
    shapes = [[0] * len(SHAPE_KEYS) for _ in range(2)]
    chicken, illegal = [0, 0], [0, 0]
    payout: dict[int, list[int]] = {}
    for hands, mult in enumerate_hands(**space_options(space)):
        for hand, m in zip(hands.astype(np.int64), mult.tolist()):
            kinds = np.flatnonzero(hand) if win == "uniform" else [fastscore.parse_tile(win)]
            for k in kinds:
                c = int(hand[k])
                if c == 0:
                    continue
                concealed = hand.copy()
                concealed[k] -= 1
                res = score_one(format_counts(concealed), TILE_NAMES[k], **context)
                # uniform: unit 17 per hand, c / 17 of it to kind k; a given tile: 1 per hand
                weights = (c, m * c) if win == "uniform" else (1, m * c)
                _add(res, weights, total, rows, shapes, chicken, illegal, payout)
    return _as_tally(total, rows, shapes, chicken, illegal, payout)


def _add(res, weights, total, rows, shapes, chicken, illegal, payout) -> None:
    for w, v in enumerate(weights):
        total[w] += v
        shapes[w][SHAPE_KEYS.index(res["shape"] or "no_win")] += v
        if not res["is_win"]:
            continue
        chicken[w] += v * bool(res["chicken"])
        illegal[w] += v * (not res["legal"])
        payout.setdefault(res["payout"], [0, 0])[w] += v
        for rid, points in res["rows"].items():
            if points:
                rows[w][ROW_IDS.index(rid)] += v


def _as_tally(total, rows, shapes, chicken, illegal, payout) -> Tally:
    tally = Tally(np.array(total), np.array(rows), np.array(shapes), np.array(chicken), np.array(illegal))
    for p, ws in payout.items():
        tally.add_payout(np.array([p]), np.array(ws).reshape(2, 1))
    return tally


def fast_one(hand, win, **context) -> dict:
    return fastscore.score(hand, win, **context).to_dict()


def assert_tally_equal(got: Tally, expected: Tally) -> None:
    for name in ("total", "rows", "shapes", "chicken", "illegal"):
        np.testing.assert_array_equal(getattr(got, name), getattr(expected, name), err_msg=name)
    assert got.equal(expected), "payout histograms differ"


# --------------------------------------------------------------------------- exact tallies


def test_honours_space_against_fastscore_score_one_by_one():
    context = dict(self_drawn=True, seat="S", round="W", flowers="2f")
    result = survey(**space_options(HONOURS), win="Wh", progress=False, **context)
    assert result.hands == result.scorings == 36 and result.unit == 1  # white in a pong (30) or the eyes (6)
    assert_tally_equal(result.tally, brute_force(HONOURS, win="Wh", score_one=fast_one, **context))
    assert result.row_frequency()["all_honours"] == 1.0


def test_honours_space_uniform_against_reference():
    context = dict(self_drawn=True, seat="S", round="W", flowers="2f")
    result = survey(**space_options(HONOURS), progress=False, **context)
    assert result.hands == 42 and result.scorings == 42 * 6 and result.unit == 17
    assert_tally_equal(result.tally, brute_force(HONOURS, score_one=reference.score, **context))


@pytest.mark.parametrize("space", [MIXED, BAMBOO], ids=["mixed", "bamboo"])
def test_space_against_reference_one_by_one(space):
    result = survey(**space_options(space), progress=False, chunk_rows=100)
    expected = brute_force(space, score_one=reference.score)
    assert_tally_equal(result.tally, expected)
    assert result.tally.total[0] == 17 * result.hands
    assert result.multiplicity * 17 == result.tally.total[1]


def test_given_winning_tile_against_reference():
    context = dict(self_drawn=False, seat="E", round="S")
    result = survey(**space_options(MIXED), win="9m", progress=False, **context)
    expected = brute_force(MIXED, win="9m", score_one=reference.score, **context)
    assert_tally_equal(result.tally, expected)
    assert result.unit == 1 and result.hands == result.scorings == int(expected.total[0])
    assert 0 < result.hands < 162


def test_compare_table_chickens_and_illegal_wins(variant_rules):
    context = dict(self_drawn=False, seat="E", round="E", flowers="2f")
    result = survey(**space_options(TWO_SUITS), compare=variant_rules, progress=False, **context)
    alone = survey(**space_options(TWO_SUITS), rules=variant_rules, progress=False, **context)
    assert_tally_equal(result.tally, survey(**space_options(TWO_SUITS), progress=False, **context).tally)
    assert_tally_equal(result.compare, alone.tally)

    # Brute force, both tables hand by hand: the variant's tallies and the payout changes.
    total, rows, shapes, chicken, illegal, payout = [0, 0], [[0] * len(ROW_IDS) for _ in range(2)], \
        [[0] * len(SHAPE_KEYS) for _ in range(2)], [0, 0], [0, 0], {}
    change = np.zeros((2, 3), dtype=np.int64)
    for hands, mult in enumerate_hands(**space_options(TWO_SUITS)):
        for hand, m in zip(hands.astype(np.int64), mult.tolist()):
            for k in np.flatnonzero(hand):
                concealed = hand.copy()
                concealed[k] -= 1
                text, tile = format_counts(concealed), TILE_NAMES[k]
                a = reference.score(text, tile, **context)
                b = reference.score(text, tile, rules_path=variant_rules, **context)
                weights = (int(hand[k]), m * int(hand[k]))
                _add(b, weights, total, rows, shapes, chicken, illegal, payout)
                change[:, int(np.sign(b["payout"] - a["payout"])) + 1] += weights
    assert_tally_equal(alone.tally, _as_tally(total, rows, shapes, chicken, illegal, payout))
    assert alone.tally.chicken[0] > 0 and alone.tally.illegal[0] > 0
    np.testing.assert_array_equal(result.payout_change, change)


def sample_brute_force(n: int, seed: int, win=None, **fixed) -> Tally:
    """Each sampled hand scored once by the reference, on its own winning tile (or ``win``, if it holds it)
    and its own context except the ``fixed`` fields; weight 1 in both weightings."""
    batch = sample_winning(n, seed)
    total, rows, shapes, chicken, illegal, payout = [0, 0], [[0] * len(ROW_IDS) for _ in range(2)], \
        [[0] * len(SHAPE_KEYS) for _ in range(2)], [0, 0], [0, 0], {}
    for i in range(n):
        full = batch.concealed[i].astype(np.int64)
        full[batch.win[i]] += 1
        tile = int(batch.win[i]) if win is None else fastscore.parse_tile(win)
        if full[tile] == 0:
            continue
        concealed = full.copy()
        concealed[tile] -= 1
        declared = " ".join(format_set(SetKind(int(kind)), int(t)) for kind, t in batch.declared[i] if kind)
        own = dict(self_drawn=bool(batch.self_drawn[i]), seat=WINDS[batch.seat[i]], round=WINDS[batch.round[i]],
                   flowers="".join(f"{k + 1}f" for k in range(8) if batch.flowers[i] >> k & 1))
        res = reference.score(f"{format_counts(concealed)} {declared}", TILE_NAMES[tile], **{**own, **fixed})
        _add(res, (1, 1), total, rows, shapes, chicken, illegal, payout)
    return _as_tally(total, rows, shapes, chicken, illegal, payout)


def test_sample_scores_each_hand_once_in_its_own_context():
    """A sample survey scores what the sampler drew: each hand on its own winning tile, self-draw, seat,
    round and flowers (a survey that put its own context on them, or scored every kind, differs)."""
    n, seed = 200, 11
    result = survey(sample=n, seed=seed, progress=False, chunk_rows=64)
    assert_tally_equal(result.tally, sample_brute_force(n, seed))
    assert result.hands == result.scorings == n and result.unit == 1
    np.testing.assert_array_equal(result.tally.total, [n, n])  # 200 hands, each counted once
    assert result.tally.shapes[0, 1:].sum() == n  # every sampled hand wins
    batch = sample_winning(n, seed)
    assert len(set(batch.seat.tolist())) > 1 and 0 < batch.self_drawn.sum() < n  # the context does vary
    assert result.context["seat"] == result.context["self_drawn"] == "each hand's own"


def test_sample_context_fixed_where_given():
    """Fixed fields replace the hands' own, the others stay theirs; a fixed tile keeps the hands holding it."""
    n, seed = 150, 5
    fixed = survey(sample=n, seed=seed, progress=False, seat="N", self_drawn=False)
    assert_tally_equal(fixed.tally, sample_brute_force(n, seed, seat="N", self_drawn=False))
    assert fixed.context["seat"] == "N" and fixed.context["round"] == "each hand's own"
    tile = survey(sample=n, seed=seed, progress=False, win="5p", flowers="")
    expected = sample_brute_force(n, seed, win="5p", flowers="")
    assert_tally_equal(tile.tally, expected)
    assert tile.hands == expected.total[0] < n  # only the hands holding 5p, each counted once


# --------------------------------------------------------------------------- determinism


def test_chunk_size_does_not_change_the_tallies():
    options = dict(**space_options(MIXED), progress=False)
    a = survey(**options, chunk_rows=7)
    b = survey(**options, chunk_rows=100_000)
    assert_tally_equal(a.tally, b.tally)
    assert (a.hands, a.scorings, a.multiplicity) == (b.hands, b.scorings, b.multiplicity)


def test_ranges_add_up_to_the_whole_survey(variant_rules):
    """survey_range over disjoint ranges (the Dask tasks) sums to the one-range survey, compare table included."""
    for options in (dict(**space_options(TWO_SUITS), compare=variant_rules), dict(sample=3_000, seed=9, win="5p")):
        whole = survey(**options, progress=False)
        plan = plan_survey(**options, chunk_rows=50)
        cuts = [0, 1, 77, plan.size // 2, plan.size]
        total = SurveyPart(compare=Tally() if plan.other is not None else None)
        for a, b in zip(cuts, cuts[1:]):
            total += survey_range(plan, a, b)
        got = plan.result(total)
        assert (got.hands, got.scorings, got.multiplicity) == (whole.hands, whole.scorings, whole.multiplicity)
        assert_tally_equal(got.tally, whole.tally)
        if plan.other is not None:
            assert_tally_equal(got.compare, whole.compare)
            np.testing.assert_array_equal(got.payout_change, whole.payout_change)
    with pytest.raises(ValueError, match="not inside"):
        survey_range(plan, 0, plan.size + 1)


SURVEY_SCRIPT = """
import json, sys
import numpy as np
from fastscore.survey import survey
fixed = np.zeros(34, dtype=np.int64)
fixed[[0, 1, 2, 12, 13, 14]] = 1
fixed[27] = 2  # 123m 456p EE: 35,445 hands
r = survey(suits="mp", fixed=fixed, chunk_rows=int(sys.argv[1]), progress=False, self_drawn=True)
t = r.tally
print(json.dumps([r.hands, r.scorings, t.total.tolist(), t.rows.tolist(), t.shapes.tolist(), t.chicken.tolist(),
                  t.illegal.tolist(), np.trim_zeros(t.payout[1], "b").tolist(), t.payout[0].tolist()]))
"""


def test_same_tallies_whatever_the_thread_count():
    outputs = outputs_by_thread_count(SURVEY_SCRIPT, [(1, 40_000), (2, 3_000)])  # (threads, chunk rows)
    assert len(outputs) == 1
    assert json.loads(outputs.pop())[0] > 10_000


# --------------------------------------------------------------------------- output


@pytest.fixture(scope="module")
def compared(variant_rules):
    return survey(**space_options(TWO_SUITS), compare=variant_rules, flowers="2f", progress=False)


@pytest.mark.parametrize("plot", [plot_payout, plot_rows, plot_compare])
def test_plot_is_a_labelled_png(plot, compared, tmp_path):
    fig = plot(compared)
    axes = fig.get_axes()
    assert axes
    for ax in axes:
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title(), plot.__name__
    path = tmp_path / f"{plot.__name__}.png"
    fig.savefig(path)
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC and len(data) > 10_000
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width >= 400 and height >= 300


def test_report_and_parquet(compared, tmp_path):
    page = compared.report(tmp_path / "out")
    assert page == tmp_path / "out" / "report.md"
    text = page.read_text()
    for name in ("payout.png", "rows.png", "compare.png"):
        assert f"]({name})" in text
        assert (tmp_path / "out" / name).read_bytes()[:8] == PNG_MAGIC
    assert "## Comparison" in text and "Chicken" in text
    table = pq.read_table(tmp_path / "out" / "survey.parquet")
    meta = json.loads(table.schema.metadata[b"fastscore.survey"])
    assert meta["hands"] == compared.hands and meta["flowers"] == "2f" and meta["win"] == "uniform"
    rows = table.to_pylist()
    by_key = {(r["table"], r["statistic"], r["key"]): r for r in rows}
    # The rows in force of each table (the LRC table's 45), no catalog row it does not score.
    assert [r["key"] for r in rows if r["table"] == "rules" and r["statistic"] == "row"] \
        == list(compared.table.row_ids) and len(compared.table.row_ids) == 45
    for r, rid in enumerate(ROW_IDS):
        got = by_key.get(("rules", "row", rid))
        if rid not in compared.table.row_ids:
            assert got is None and not compared.tally.rows[:, r].any()
            continue
        assert (got["unweighted"], got["weighted"]) == tuple(compared.tally.rows[:, r])
        assert got["weighted_fraction"] == pytest.approx(compared.row_frequency()[rid])
    assert by_key[("compare", "chicken", "")]["weighted"] == compared.compare.chicken[1]
    paid = {int(r["key"]): r["weighted"] for r in rows if r["table"] == "rules" and r["statistic"] == "payout"}
    assert sum(paid.values()) == compared.tally.total[1]
    assert sum(r["unweighted"] for r in rows if r["statistic"] == "payout_change") == compared.tally.total[0]


@pytest.fixture(scope="module")
def sampled():
    return survey(sample=300, seed=4, progress=False)


def test_sample_report_shows_only_what_sampling_means(sampled, tmp_path):
    """A sample's hands count once: one column (share of sampled hands), no multiplicity, no weighted
    columns in survey.parquet, and its counts are the plain number of hands."""
    text = sampled.report(tmp_path / "out").read_text()
    assert "weighted" not in text and "multiplicity" not in text
    assert "| | share of sampled hands |" in text and "| row | share of sampled hands |" in text
    assert "| payout | count | share of sampled hands |" in text
    assert "| all | 300 | 100% |" in text  # 300 sampled hands, each counted once
    assert "self-draw: each hand's own; seat each hand's own; round each hand's own" in text
    table = pq.read_table(tmp_path / "out" / "survey.parquet")
    assert table.column_names == ["table", "statistic", "key", "unweighted", "unweighted_fraction"]
    rows = {(r["statistic"], r["key"]): r for r in table.to_pylist()}
    assert rows[("total", "")]["unweighted"] == 300
    assert sum(r["unweighted"] for (stat, _), r in rows.items() if stat == "payout") == 300
    for field in table.schema:
        assert field.metadata[b"description"], field.name
    assert b"sampled hands" in table.schema.field("unweighted").metadata[b"description"]
    for plot in (plot_payout, plot_rows):
        labels = [t.get_text() for t in plot(sampled).get_axes()[0].get_legend().get_texts()]
        assert labels == ["sampled hands"], plot.__name__


def test_space_parquet_counts_are_documented_plain_counts(compared, tmp_path):
    """Over the space with win uniform the unweighted count is (hand, winning tile) pairs: 17 per hand."""
    compared.to_parquet(tmp_path / "s.parquet")
    table = pq.read_table(tmp_path / "s.parquet")
    total = next(r for r in table.to_pylist() if r["statistic"] == "total" and r["table"] == "rules")
    assert total["unweighted"] == 17 * compared.hands  # 330 hands x 17 tiles
    assert total["weighted"] == 17 * compared.multiplicity
    assert b"(hand, winning tile) pairs" in table.schema.field("unweighted").metadata[b"description"]


def test_payout_table_is_binned_with_counts(compared):
    """The payout table: bins 0, 20-24, 25-29, ... with the unweighted count and both shares, and a total."""
    text = markdown(compared, plots=False)
    t = compared.tally
    lines = [line for line in text.split("## Payout")[1].split("## Comparison")[0].splitlines() if line.startswith("| ")]
    assert lines[0] == "| payout | count | unweighted | weighted |"
    body = {line.split(" | ")[0][2:]: line for line in lines[1:]}
    hist = t.payout[0]
    assert np.flatnonzero(hist).tolist() == [0, 31, 32, 33, 34, 36, 37]  # East seat: legal wins pay 31 to 37
    assert (int(hist[0]), int(hist[30:40].sum())) == (5_559, 51)  # 5,559 + 51 = 5,610 = 330 hands x 17 tiles
    assert list(body) == ["0", "30-39", "all"]  # empty bins are left out
    assert body["0"].startswith("| 0 | 5,559 | 99.09% | ")  # 5,559 / 5,610
    assert body["30-39"].startswith("| 30-39 | 51 | 0.91% | ")  # 51 / 5,610
    assert body["all"] == "| all | 5,610 | 100% | 100% |"
    assert "e-" not in text and "e+" not in text  # shares for people, no scientific notation


def test_shares_are_written_for_people():
    assert [_pct(x) for x in (0, 0.5, 0.003, 0.000012, 3e-9)] == ["0", "50.00%", "0.30%", "0.0012%", "< 0.0001%"]


def test_compare_section_shows_points_and_frequencies(compared):
    """--compare shows what the user changed: each changed row's points under both tables, the minimum,
    the mean payouts and their difference, and the frequency change."""
    text = markdown(compared, plots=False).split("## Comparison")[1]
    t, c = compared.tally, compared.compare
    assert f"Mean payout {t.mean_payout():,.2f} under a, {c.mean_payout():,.2f} under b " \
           f"({c.mean_payout() - t.mean_payout():+,.2f} points)" in text
    assert "| round minimum (E S W N) | 20 22 24 26 | 30 32 34 36 | |" in text
    # the variant table: concealed_hand 5 -> 0 points, single_wait 1 -> 3 points
    hand_line = next(line for line in text.splitlines() if line.startswith("| `concealed_hand` |"))
    assert hand_line.startswith("| `concealed_hand` | 5 | 0 | ")
    freq = compared.row_frequency()["concealed_hand"]
    assert hand_line.endswith(f"| 0 | {-100 * freq:+,.2f}% |")  # never scores under b: its frequency drops to 0
    assert next(line for line in text.splitlines() if line.startswith("| `single_wait` |")).startswith(
        "| `single_wait` | 1 | 3 | ")
    assert "| `mahjong_base` |" not in text  # same points, same frequency: not a difference


@pytest.mark.parametrize("plot", [plot_payout, plot_rows, plot_compare])
def test_plots_draw_two_series_side_by_side(plot, compared):
    """Two series in two colours, their bars never over each other (the second cannot hide the first)."""
    for ax in plot(compared).get_axes():
        bars = [p for p in ax.patches]
        colours = {p.get_facecolor() for p in bars}
        assert len(colours) == 2, plot.__name__
        horizontal = ax.get_xscale() == "log"
        spans = sorted((p.get_y(), p.get_y() + p.get_height()) if horizontal else (p.get_x(), p.get_x() + p.get_width())
                       for p in bars)
        for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
            assert a1 <= b0 + 1e-9, (plot.__name__, a0, a1, b0, b1)


def test_survey_help_says_whose_context_a_sample_uses():
    out = CliRunner().invoke(app, ["survey", "--help"]).stdout
    text = " ".join(out.split())
    for option in ("--seat", "--round", "--flowers", "--self-drawn"):
        assert option in text
    assert text.count("with --sample, each hand's own") >= 4  # self-draw, seat, round, flowers (and win)


def test_cli_sample_survey(tmp_path):
    done = CliRunner().invoke(app, ["survey", "--sample", "200", "--seed", "1", "--no-progress", "-o",
                                    str(tmp_path / "s")])
    assert done.exit_code == 0, done.output
    assert "weighted" not in done.stdout and "sampled hands" in done.stdout


def test_report_without_compare(tmp_path):
    result = survey(**space_options(HONOURS), win="E", progress=False)
    result.report(tmp_path)
    assert not (tmp_path / "compare.png").exists()
    assert "The winning tile is 1z." in (tmp_path / "report.md").read_text()
    with pytest.raises(ValueError, match="no compared"):
        plot_compare(result)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (dict(win="9f"), "flower"),
        (dict(win="x"), "uniform"),
        (dict(seat="Q"), "wind"),
        (dict(flowers="9f"), "flower"),
        (dict(sample=10, suits="s"), "exhaustive"),
        (dict(sample=0), "positive"),
        (dict(suits="q"), "mps"),
        (dict(chunk_rows=0), "chunk_rows"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        survey(progress=False, **{"suits": "", **options})


# --------------------------------------------------------------------------- command line


def test_cli_survey(tmp_path, variant_rules):
    runner = CliRunner()
    out = tmp_path / "report"
    done = runner.invoke(app, ["survey", "--suits", "", "--self-drawn", "--seat", "S", "--compare", str(variant_rules),
                               "--no-progress", "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert "top 10 rows by frequency" in done.stdout and "wall time" in done.stdout
    assert "all_honours" in done.stdout
    assert (out / "report.md").exists() and (out / "compare.png").exists() and (out / "survey.parquet").exists()
    bad = runner.invoke(app, ["survey", "--win", "9f", "-o", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and "flower" in bad.output


def test_report_without_matplotlib(compared, tmp_path, monkeypatch, capsys):
    """Without matplotlib (the ``report`` extra) the page and the tallies are written, the plots are not,
    and the page and one line on stderr say what to install; everything else is the same page."""
    with_plots = compared.report(tmp_path / "plots").read_text()
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    capsys.readouterr()
    page = compared.report(tmp_path / "bare")
    assert sorted(p.name for p in (tmp_path / "bare").iterdir()) == ["report.md", "survey.parquet"]
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "pip install 'fastscore[report]'" in err[0]
    text = page.read_text()
    assert "pip install 'fastscore[report]'" in text and ".png)" not in text
    note = [line for line in text.splitlines() if "fastscore[report]" in line]
    assert len(note) == 1
    images = [line for line in with_plots.splitlines() if line.startswith("![")]
    assert [line.split("(")[-1] for line in images] == ["rows.png)", "payout.png)", "compare.png)"]
    bare = text.replace(note[0] + "\n\n", "", 1)
    for line in images:
        with_plots = with_plots.replace(line + "\n\n", "", 1)
    assert bare == with_plots
    plots_table = pq.read_table(tmp_path / "plots" / "survey.parquet")
    assert pq.read_table(tmp_path / "bare" / "survey.parquet").equals(plots_table)
    for plot in (plot_payout, plot_rows, plot_compare):
        with pytest.raises(ImportError, match=r"fastscore\[report\]"):
            plot(compared)


def test_cli_survey_without_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "report"
    done = CliRunner().invoke(app, ["survey", "--suits", "", "--no-progress", "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert "all_honours" in done.stdout and "wrote" in done.stdout
    assert done.stderr.count("pip install 'fastscore[report]'") == 1
    assert sorted(p.name for p in out.iterdir()) == ["report.md", "survey.parquet"]


# --------------------------------------------------------------------------- interrupted reports (issue #23)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def honours_e():
    """A second result, unlike ``compared``: the all-honours hands won on East, no compared table."""
    return survey(**space_options(HONOURS), win="E", progress=False)


def test_report_failing_mid_write_leaves_the_old_report_whole(compared, honours_e, tmp_path, monkeypatch):
    out = tmp_path / "out"
    compared.report(out)
    old = _files(out)

    def disk_full(result, path):  # the plots are written by now; the tallies fail
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(sys.modules["fastscore.survey.report"], "write_parquet", disk_full)
    with pytest.raises(OSError, match="No space left"):
        honours_e.report(out)
    assert _files(out) == old  # not one new plot beside the old page
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # the hidden folder is removed


KILLED_REPORT = """
import os, sys
from fastscore.survey import survey

report = sys.modules["fastscore.survey.report"]  # (fastscore.survey is also the function)

def killed(result, path):  # the process dies with the plots written and the tallies half written
    path.write_bytes(b"PAR1 half")
    os._exit(9)

report.write_parquet = killed
survey(suits="", win="E", progress=False).report(sys.argv[1])
"""


def test_report_killed_mid_write_leaves_the_old_report_whole(compared, honours_e, tmp_path):
    out = tmp_path / "out"
    compared.report(out)
    old = _files(out)
    run = subprocess.run([sys.executable, "-c", KILLED_REPORT, str(out)], capture_output=True, text=True,
                         timeout=600, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                             filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))})
    assert run.returncode == 9, run.stderr
    assert _files(out) == old  # the old report, whole; the killed run's files are not under this name
    partial = list(tmp_path.glob(".out.partial-*"))
    assert len(partial) == 1 and "survey.parquet" in _files(partial[0])
    honours_e.report(out)  # the next report removes the killed run's folder
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert "The winning tile is 1z." in (out / "report.md").read_text()


def test_report_rerun_leaves_only_the_new_files(compared, honours_e, tmp_path):
    out = tmp_path / "out"
    compared.report(out)
    assert (out / "compare.png").exists()
    honours_e.report(out)
    assert sorted(_files(out)) == ["payout.png", "report.md", "rows.png", "survey.parquet"]  # no stale compare.png
    fresh = honours_e.to_parquet(tmp_path / "fresh.parquet")
    assert pq.read_table(out / "survey.parquet").equals(pq.read_table(fresh))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.parquet", "out"]  # nothing else left beside it


def test_report_refuses_a_folder_of_other_files(honours_e, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    with pytest.raises(ValueError, match=r"mine: holds notes\.txt, which is not a file of a fastscore survey"):
        honours_e.report(out)
    assert _files(out) == {"notes.txt": b"keep me"}
    done = CliRunner().invoke(app, ["survey", "--suits", "", "--win", "E", "--no-progress", "-o", str(out)])
    assert done.exit_code == 2 and "holds notes.txt" in done.stderr and "hands:" not in done.stdout
    assert _files(out) == {"notes.txt": b"keep me"}
    (out / "notes.txt").unlink()
    honours_e.report(out)  # an empty folder is fine
    assert (out / "report.md").exists()
