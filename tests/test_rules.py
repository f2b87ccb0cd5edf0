"""fastscore.rules: the packaged rule table, user tables and their validation (RULES.md sections 4, 6)."""

from __future__ import annotations

import json
import os
import re
import tomllib
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import fastscore
from fastscore import ROW_IDS, RuleTable, RuleTableError, Shape, load_rules
from fastscore.profiles import PROFILES
from fastscore.rules import DEALER_ROWS, MAX_POINTS

RULES_TOML = Path(str(resources.files("fastscore").joinpath("rules.toml")))
SEED = "11m99m77p11s9s EE RR 333p"
SEED_CONTEXT = dict(self_drawn=True, seat="S", round="E")

# RULES.md section 4, row by row (nico_quad_pairs: one / two / three quads).
# fmt: off
RULES_MD_POINTS = {
    "self_draw": 1, "concealed_hand": 5, "concealed_self_draw": 10, "single_wait": 1, "closing": 5,
    "no_flowers": 1, "seat_flower": 1, "flower_set": 10,
    "all_five_suits": 10, "no_honours": 1, "no_flower_no_honour": 5, "all_sheung_nfnh": 15, "semi_pure": 30,
    "pure": 90, "jade": 20, "ruby": 20, "sapphire": 20, "diamond": 20, "all_honours": 140,
    "wind_pong": 1, "dragon_pong": 2, "little_three_winds": 15, "big_three_winds": 30, "little_four_winds": 50,
    "big_four_winds": 60, "little_three_dragons": 20, "big_three_dragons": 40,
    "all_pongs": 30, "sister_sheungs": 10, "step_up_mixed": 5, "step_up_pure": 15, "all_step_up_mixed": 20,
    "all_step_up_pure": 90, "pure_dragon_concealed": 20, "pure_dragon": 10, "mixed_dragon_concealed": 10,
    "mixed_dragon": 5, "good_eyes": 2,
    "nico_nico": 40, "nico_quad_pairs": [10, 25, 45], "thirteen_orphans": 80, "sixteen_orphans": 50,
    "mahjong_base": 5, "east_wins": 5, "streak_bonus": 5,
}
# fmt: on
#: The LRC table's rows, in RULES.md order (the first rows of the catalog, fastscore.ROW_IDS).
LRC_IDS = tuple(RULES_MD_POINTS)
# fmt: off
# Replacements stated in RULES.md section 4 (each must be in the table; the table may state more).
RULES_MD_REPLACES = {
    "concealed_self_draw": {"self_draw", "concealed_hand"},
    "no_flower_no_honour": {"no_flowers", "no_honours"},
    "all_sheung_nfnh": {"no_flower_no_honour"},
    "pure": {"no_honours", "no_flower_no_honour", "all_sheung_nfnh"},
    "all_honours": {"all_pongs"},
    "step_up_pure": {"step_up_mixed"},
    "all_step_up_mixed": {"step_up_mixed", "step_up_pure", "all_sheung_nfnh"},
    "all_step_up_pure": {"step_up_mixed", "step_up_pure", "all_sheung_nfnh", "pure"},
}
# fmt: on
# The section of RULES.md section 4 that states each row.
RULES_MD_SECTION = {rid: section for section, ids in {
    "4.1": "self_draw concealed_hand concealed_self_draw single_wait closing",
    "4.2": "no_flowers seat_flower flower_set",
    "4.3": "all_five_suits no_honours no_flower_no_honour all_sheung_nfnh semi_pure pure jade ruby sapphire diamond "
           "all_honours",
    "4.4": "wind_pong dragon_pong little_three_winds big_three_winds little_four_winds big_four_winds "
           "little_three_dragons big_three_dragons",
    "4.5": "all_pongs sister_sheungs step_up_mixed step_up_pure all_step_up_mixed all_step_up_pure "
           "pure_dragon_concealed pure_dragon mixed_dragon_concealed mixed_dragon good_eyes",
    "4.6": "nico_nico nico_quad_pairs thirteen_orphans sixteen_orphans",
    "4.7": "mahjong_base east_wins streak_bonus",
}.items() for rid in ids.split()}


# --------------------------------------------------------------------------------------------
# The packaged table
# --------------------------------------------------------------------------------------------


def test_packaged_table_loads():
    table = load_rules()
    assert isinstance(table, RuleTable)
    assert table.points.shape == (len(ROW_IDS),) and table.points.dtype == np.int64
    assert table.tiers.shape == (len(ROW_IDS), 3)
    assert table.replaces.shape == (len(ROW_IDS), len(ROW_IDS))
    assert table.shape_mask.shape == (len(Shape), len(ROW_IDS))
    assert table.minimum.tolist() == [20, 22, 24, 26]  # section 6.2: E S W N rounds
    assert table.chicken_points == 1
    assert sorted(table.order.tolist()) == list(range(len(ROW_IDS)))
    assert Path(table.path).name == "rules.toml"
    # the same table through an explicit path
    same = load_rules(RULES_TOML)
    assert np.array_equal(same.points, table.points) and np.array_equal(same.tiers, table.tiers)
    assert np.array_equal(same.replaces, table.replaces) and np.array_equal(same.shape_mask, table.shape_mask)


def test_every_row_id_has_exactly_one_row():
    data = tomllib.loads(RULES_TOML.read_text())
    ids = [row["id"] for row in data["row"]]
    assert ids == list(LRC_IDS) == list(ROW_IDS[:45])
    assert len(ids) == len(set(ids)) == 45
    for row in data["row"]:
        # the specification's section of each row, and the origin of its value ([seed] [site] [default])
        assert re.fullmatch(rf"LRC rules, section {RULES_MD_SECTION[row['id']]} \[(seed|site|default)\]",
                            row["source"]), row["id"]
        assert row["condition"] and "\n" not in row["condition"] and len(row["condition"]) <= 80, row["id"]
        assert set(row) <= {"id", "points", "replaces", "shapes", "condition", "source"}


@pytest.mark.parametrize("row_id", LRC_IDS)
def test_packaged_values_are_rules_md(row_id):
    table = load_rules()
    i = ROW_IDS.index(row_id)
    expected = RULES_MD_POINTS[row_id]
    if isinstance(expected, list):
        assert table.tiers[i].tolist() == expected
        assert table.value(row_id) == expected[0]
    else:
        assert table.points[i] == expected
        assert table.value(row_id) == expected


def test_packaged_replacements_include_rules_md():
    table = load_rules()
    for row_id, replaced in RULES_MD_REPLACES.items():
        got = {ROW_IDS[j] for j in np.flatnonzero(table.replaces[ROW_IDS.index(row_id)])}
        assert replaced <= got, row_id
    # the topological order puts every replacing row before the rows it replaces
    position = {int(r): k for k, r in enumerate(table.order)}
    for a, b in zip(*np.nonzero(table.replaces)):
        assert position[int(a)] < position[int(b)]


def test_packaged_shape_masks_follow_section_5():
    mask = load_rules().shape_mask
    col = ROW_IDS.index
    # 5.1: Nico Nico never takes single_wait, concealed_hand, concealed_self_draw, closing
    for row in ("single_wait", "concealed_hand", "concealed_self_draw", "closing", "all_pongs"):
        assert not mask[Shape.NICO_NICO, col(row)], row
    # 5.2: the Orphans never take single_wait; they take concealed_hand / concealed_self_draw / closing
    for shape in (Shape.THIRTEEN_ORPHANS, Shape.SIXTEEN_ORPHANS):
        assert not mask[shape, col("single_wait")]
        for row in ("concealed_hand", "concealed_self_draw", "closing", "all_five_suits"):
            assert mask[shape, col(row)], (shape, row)
    # the base and dealer rows apply to every shape
    for row in DEALER_ROWS:
        assert mask[:, col(row)].all()


# --------------------------------------------------------------------------------------------
# User tables that must be rejected
# --------------------------------------------------------------------------------------------


def changed_table(tmp_path, pattern: str, replacement: str, name: str = "rules.toml") -> Path:
    """A copy of the packaged table with one regex substitution."""
    text, n = re.subn(pattern, replacement, RULES_TOML.read_text(), count=1, flags=re.S)
    assert n == 1, f"pattern {pattern!r} not found in rules.toml"
    path = tmp_path / name
    path.write_text(text)
    return path


def row_block(row_id: str) -> str:
    """The pattern of one [[row]] entry (up to the next entry or comment)."""
    return rf'\[\[row\]\]\nid = "{row_id}"\n.*?(?=\n\[\[row\]\]|\n#|\Z)'


def points_of(row_id: str) -> str:
    return rf'(id = "{row_id}"\npoints = )[^\n]*'


# fmt: off
BAD_TABLES = [
    # (pattern, replacement, fragments the message must contain)
    pytest.param(r'id = "nico_nico"', 'id = "nico_nicco"', ["unknown row id 'nico_nicco'", "known: self_draw"],
                 id="unknown-row"),
    pytest.param(r"(\[\[row\]\]\nid = \"self_draw\")", r'\1\npoints = 1\n\n[[row]]\nid = "self_draw"',
                 ["row 'self_draw' appears twice"], id="duplicate-row"),
    pytest.param(points_of("dragon_pong"), r"\g<1>1.5", ["row 'dragon_pong'", "must be an integer", "1.5"],
                 id="float-points"),
    pytest.param(points_of("dragon_pong"), r'\g<1>"5"', ["row 'dragon_pong'", "must be an integer", "'5'"],
                 id="string-points"),
    pytest.param(points_of("dragon_pong"), r"\g<1>true", ["row 'dragon_pong'", "must be an integer", "True"],
                 id="bool-points"),
    pytest.param(points_of("dragon_pong"), r"\g<1>[2]", ["row 'dragon_pong'", "must be an integer", "[2]"],
                 id="list-points"),
    pytest.param(points_of("dragon_pong"), r"\g<1>-2", ["row 'dragon_pong'", f"between 0 and {MAX_POINTS}", "-2"],
                 id="negative-points"),
    pytest.param(points_of("dragon_pong"), r"\g<1>9223372036854775807",
                 ["row 'dragon_pong'", f"between 0 and {MAX_POINTS}"], id="huge-points"),
    pytest.param(r'(id = "dragon_pong"\n)points = [^\n]*\n', r"\1", ["row 'dragon_pong'", "None"],
                 id="no-points"),
    pytest.param(points_of("nico_quad_pairs"), r"\g<1>[10, 25]", ["row 'nico_quad_pairs'", "list of 3 integers"],
                 id="quad-pairs-two-tiers"),
    pytest.param(points_of("nico_quad_pairs"), r"\g<1>[10, 25, 45, 60]",
                 ["row 'nico_quad_pairs'", "list of 3 integers"], id="quad-pairs-four-tiers"),
    pytest.param(points_of("nico_quad_pairs"), r"\g<1>10", ["row 'nico_quad_pairs'", "list of 3 integers"],
                 id="quad-pairs-scalar"),
    pytest.param(points_of("nico_quad_pairs"), r"\g<1>[10, 25.5, 45]",
                 ["row 'nico_quad_pairs'", "must be an integer", "25.5"], id="quad-pairs-float"),
    pytest.param(r'(id = "single_wait"\npoints = 1\nreplaces = \[\]\nshapes = )\["standard"\]', r'\1["standard", "nico"]',
                 ["row 'single_wait'", "unknown shape 'nico'", "known: standard, nico_nico"], id="unknown-shape"),
    pytest.param(r'(id = "single_wait"\npoints = 1\nreplaces = \[\]\nshapes = )\["standard"\]', r'\1"standard"',
                 ["row 'single_wait'", "shapes must be a list"], id="shapes-not-a-list"),
    pytest.param(r'(id = "self_draw"\npoints = 1\nreplaces = )\[\]', r'\1["concealed_self_draw"]',
                 ["'replaces' cycle", "self_draw", "concealed_self_draw"], id="replaces-cycle"),
    pytest.param(r'(id = "self_draw"\npoints = 1\nreplaces = )\[\]', r'\1["self_draw"]',
                 ["'replaces' cycle among rows self_draw"], id="replaces-itself"),
    pytest.param(r'(id = "self_draw"\npoints = 1\nreplaces = )\[\]', r'\1["self_drawn"]',
                 ["row 'self_draw' replaces unknown row 'self_drawn'"], id="replaces-unknown"),
    pytest.param(r'(id = "self_draw"\npoints = 1\nreplaces = )\[\]', r"\g<1>5",
                 ["row 'self_draw'", "replaces must be a list"], id="replaces-not-a-list"),
    pytest.param(r'(id = "mahjong_base"\npoints = 5\nreplaces = \[\]\nshapes = )\[[^\]]*\]', r'\1["standard"]',
                 ["row 'mahjong_base' is added to every win", "leave its shapes out"], id="base-one-shape"),
    pytest.param(r'(id = "single_wait"\npoints = 1\nreplaces = )\[\]', r'\1["mahjong_base"]',
                 ["row 'single_wait' replaces 'mahjong_base'", "only a row of the whole hand"],
                 id="base-replaced-per-interpretation"),
    pytest.param(r'(id = "self_draw"\npoints = 1\nreplaces = )\[\]', r'\1["east_wins"]',
                 ["row 'self_draw' replaces 'east_wins', which no row may replace"], id="east-wins-replaced"),
    pytest.param(r"minimum = \[20, 22, 24, 26\]", "minimum = [20, 22, 24]", ["[totals] minimum", "4 integers"],
                 id="minimum-three"),
    pytest.param(r"minimum = \[20, 22, 24, 26\]", "minimum = [20, 22.5, 24, 26]",
                 ["[totals] minimum", "must be an integer", "22.5"], id="minimum-float"),
    pytest.param(r"chicken_points = 1", 'chicken_points = "1"', ["[totals] chicken_points", "must be an integer"],
                 id="chicken-string"),
    pytest.param(r"(?m)^\[totals\]\n", "totals = 5\n[not_totals]\n", ["[totals] must be a table"], id="totals-not-table"),
    pytest.param(r"(?m)^\[totals\]", "[totals", ["not valid TOML"], id="bad-toml"),
    pytest.param(r"(?m)^\[totals\].*", "row = [1, 2]\n", ["[[row]] must be a table"],
                 id="row-not-a-table"),
    pytest.param(r"\[\[row\]\].*", "", ["no [[row]] entries"], id="no-rows"),
    # a misspelt key is refused, not read as absent (which would change scores: issue #20, "no silent misreads")
    pytest.param(r'(id = "self_draw"\npoints = 1\n)replaces = ', r"\1replace = ",
                 ["row 'self_draw': unknown key 'replace' in a [[row]]", "known: id, points, replaces"],
                 id="row-key-misspelt"),
    pytest.param(r"(?m)^chicken = ", "chiken = ", ["unknown key 'chiken' in [totals]", "chicken_points, chicken"],
                 id="totals-key-misspelt"),
    pytest.param(r"(?m)^\[payout\]", "[payuot]", ["unknown key 'payuot' at the top level", "payout"],
                 id="table-misspelt"),
    pytest.param(r"(?m)^\[profile\]\n", "[profile]\nnmae = 'x'\n", ["unknown key 'nmae' in [profile]"],
                 id="profile-key-misspelt"),
]
# fmt: on


@pytest.mark.parametrize(("pattern", "replacement", "fragments"), BAD_TABLES)
def test_bad_table_is_rejected(tmp_path, pattern, replacement, fragments):
    path = changed_table(tmp_path, pattern, replacement)
    with pytest.raises(RuleTableError) as info:
        load_rules(path)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert message.startswith(str(path.resolve()))  # names the file
    for fragment in fragments:
        assert fragment in message
    # the scoring API raises the same error before scoring anything
    with pytest.raises(RuleTableError) as again:
        fastscore.score(SEED, "9s", **SEED_CONTEXT, rules=path)
    assert str(again.value) == message


def test_cycle_message_names_only_the_rows_on_the_cycle(tmp_path):
    # self_draw -> concealed_self_draw -> self_draw; concealed_self_draw also replaces concealed_hand, which is
    # downstream of the cycle but not on it
    path = changed_table(tmp_path, r'(id = "self_draw"\npoints = 1\nreplaces = )\[\]', r'\1["concealed_self_draw"]')
    with pytest.raises(RuleTableError) as info:
        load_rules(path)
    assert str(info.value).endswith("'replaces' cycle among rows self_draw, concealed_self_draw")


def test_missing_file_and_non_utf8(tmp_path):
    with pytest.raises(RuleTableError, match="cannot read rule table .*nope.toml: No such file"):
        load_rules(tmp_path / "nope.toml")
    path = tmp_path / "latin1.toml"
    path.write_bytes(RULES_TOML.read_bytes().replace(b"# fastscore", "# fästscore".encode("latin-1"), 1))
    with pytest.raises(RuleTableError, match="not valid TOML"):
        load_rules(path)


# --------------------------------------------------------------------------------------------
# Changed values change the score
# --------------------------------------------------------------------------------------------


def test_shipped_seed_example():
    # RULES.md 5.1: nico_nico 40 + no_flowers 1 + self_draw 1 + all_five_suits 10 = 52 points, + base 5 = 57
    result = fastscore.score(SEED, "9s", **SEED_CONTEXT)
    assert result.points == 52
    assert result.total == result.payout == 57


@pytest.mark.parametrize(
    ("row_id", "value", "points", "total"),
    [
        # nico_nico 40 -> 41: 41 + 1 + 1 + 10 = 53 points, + base 5 = 58
        ("nico_nico", "41", 53, 58),
        # self_draw 1 -> 3: 40 + 1 + 3 + 10 = 54 points, + base 5 = 59
        ("self_draw", "3", 54, 59),
        # all_five_suits 10 -> 0: 40 + 1 + 1 + 0 = 42 points, + base 5 = 47 (row no longer listed)
        ("all_five_suits", "0", 42, 47),
        # mahjong_base 5 -> 8: the base is a row value too (6.2): 52 points, + base 8 = 60
        ("mahjong_base", "8", 52, 60),
    ],
)
def test_changed_value_changes_the_total(tmp_path, row_id, value, points, total):
    path = changed_table(tmp_path, points_of(row_id), rf"\g<1>{value}")
    result = fastscore.score(SEED, "9s", **SEED_CONTEXT, rules=path)
    assert result.points == points
    assert result.total == result.payout == total
    assert result.rows.get(row_id, 0) == int(value)
    # the same table through score_batch, and as a loaded RuleTable
    batch = fastscore.HandBatch.from_records([dict(hand=SEED, win="9s", **SEED_CONTEXT)] * 2)
    assert fastscore.score_batch(batch, rules=path).payout.tolist() == [total, total]
    assert fastscore.score_batch(batch, rules=load_rules(path)).payout.tolist() == [total, total]
    # the shipped table is untouched
    assert fastscore.score(SEED, "9s", **SEED_CONTEXT).total == 57


def test_changed_dealer_rows(tmp_path):
    # Seed example won by East with a streak of 2: 57 + east_wins 5 + streak_bonus 5 x 2 = 72.
    assert fastscore.score(SEED, "9s", self_drawn=True, seat="E", streak=2).payout == 72
    # streak_bonus 5 -> 7: 57 + 5 + 7 x 2 = 76
    path = changed_table(tmp_path, points_of("streak_bonus"), r"\g<1>7")
    result = fastscore.score(SEED, "9s", self_drawn=True, seat="E", streak=2, rules=path)
    assert result.rows["streak_bonus"] == 14
    assert result.payout == 76


def test_changed_quad_pairs_tier(tmp_path):
    # Nico Nico with one four of a kind (1111m as two pairs), won on 9s by self-draw, seat S:
    # nico_nico 40 + nico_quad_pairs 10 (one quad) + self_draw 1 + no_flower_no_honour 5 (no flowers, no honours;
    # replaces no_flowers and no_honours) = 56 points, + base 5 = 61
    hand = "1111m 22m 33p 44p 55s 66s 99s"
    shipped = fastscore.score(hand, "9s", **SEED_CONTEXT)
    assert shipped.shape == "nico_nico"
    assert shipped.rows == {"nico_nico": 40, "nico_quad_pairs": 10, "self_draw": 1, "no_flower_no_honour": 5,
                            "mahjong_base": 5}
    assert shipped.total == 61
    # first tier 10 -> 13: 59 points, total 64
    path = changed_table(tmp_path, points_of("nico_quad_pairs"), r"\g<1>[13, 25, 45]")
    changed = fastscore.score(hand, "9s", **SEED_CONTEXT, rules=path)
    assert changed.rows["nico_quad_pairs"] == 13
    assert changed.total == 64


# --------------------------------------------------------------------------------------------
# The load cache: an edited file is read again
# --------------------------------------------------------------------------------------------


def test_same_content_is_cached(tmp_path):
    path = changed_table(tmp_path, points_of("nico_nico"), r"\g<1>41")
    assert load_rules(path) is load_rules(path)
    assert load_rules(str(path)) is load_rules(path)


def test_edited_file_is_read_again(tmp_path):
    path = changed_table(tmp_path, points_of("nico_nico"), r"\g<1>41")
    assert fastscore.score(SEED, "9s", **SEED_CONTEXT, rules=path).total == 58  # 53 + 5
    assert load_rules(path).value("nico_nico") == 41
    stat = os.stat(path)
    # The same file edited in place: 41 -> 49, same size; put the old modification time back, so that neither
    # size nor mtime tells the edit apart (an edit within one file-system timestamp tick looks like this).
    path.write_text(path.read_text().replace('id = "nico_nico"\npoints = 41', 'id = "nico_nico"\npoints = 49'))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert os.stat(path).st_size == stat.st_size
    assert load_rules(path).value("nico_nico") == 49
    assert fastscore.score(SEED, "9s", **SEED_CONTEXT, rules=path).total == 66  # 49 + 1 + 1 + 10 = 61, + 5
    # and back: the earlier table again
    path.write_text(path.read_text().replace('points = 49', 'points = 41', 1))
    assert fastscore.score(SEED, "9s", **SEED_CONTEXT, rules=path).total == 58


def test_file_broken_after_a_good_load_is_rejected(tmp_path):
    path = changed_table(tmp_path, points_of("nico_nico"), r"\g<1>41")
    assert load_rules(path).value("nico_nico") == 41
    path.write_text(path.read_text().replace('id = "nico_nico"\npoints = 41', 'id = "nico_nico"\npoints = 4.1'))
    with pytest.raises(RuleTableError, match="row 'nico_nico': points must be an integer, got 4.1"):
        load_rules(path)


def test_row_value_too_large_for_row_points_is_rejected(tmp_path):
    # Row points are int16: streak_bonus 100 x a streak of up to 1000 = 100,000 > 32,767.
    path = changed_table(tmp_path, points_of("streak_bonus"), r"\g<1>100")
    with pytest.raises(RuleTableError, match="row 'streak_bonus' can reach 100000 points"):
        load_rules(path)


def test_largest_allowed_row_value_is_reported_exactly(tmp_path):
    # streak_bonus 32 x 1000 = 32,000 fits int16; seed example 57 + east_wins 5 + 32,000 = 32,062
    path = changed_table(tmp_path, points_of("streak_bonus"), r"\g<1>32")
    result = fastscore.score(SEED, "9s", self_drawn=True, seat="E", streak=1000, rules=path)
    assert result.rows["streak_bonus"] == 32_000
    assert result.payout == 32_062


# --------------------------------------------------------------------------------------------
# The rules ship with the code: `fastscore rules` and docs/rules.md
# --------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def _rules_command(*args):
    from click.testing import CliRunner

    from fastscore.cli import app

    return CliRunner().invoke(app, ["rules", *map(str, args)])


def test_rules_command_json_is_the_table():
    done = _rules_command("--json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert [row["id"] for row in data["rows"]] == list(LRC_IDS)
    assert data["totals"] == {"minimum": {"E": 20, "S": 22, "W": 24, "N": 26}, "chicken": True, "chicken_points": 1,
                              "double_interpretation": False, "counted_once": []}
    assert data["profile"]["name"] == "lrc" and data["payout"] == {"base": 0, "unit": 1}
    pure = data["rows"][ROW_IDS.index("pure")]
    assert pure["points"] == 90 and pure["source"] == "LRC rules, section 4.3 [site]"
    assert {"no_honours", "no_flower_no_honour", "all_sheung_nfnh"} <= set(pure["replaces"])
    assert pure["condition"] == "one number suit only"
    quads = data["rows"][ROW_IDS.index("nico_quad_pairs")]
    assert quads["points"] == [10, 25, 45] and quads["shapes"] == ["nico_nico"]
    single = data["rows"][ROW_IDS.index("single_wait")]
    assert single["shapes"] == ["standard"] and single["replaces"] == []  # 5.1, 5.2: never in special shapes


def test_rules_command_prints_every_row_and_a_users_table(tmp_path):
    done = _rules_command()
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert lines[1].split()[:3] == ["row", "points", "replaces"]
    assert [line.split()[0] for line in lines[2:2 + len(LRC_IDS)]] == list(LRC_IDS)  # one line per row
    line = lines[2 + ROW_IDS.index("concealed_self_draw")]
    assert " 10 " in line and "self_draw concealed_hand" in line and "section 4.1" in line
    assert "round minimum (points, base included): E 20, S 22, W 24, N 26" in done.stdout
    text = RULES_TOML.read_text().replace('id = "pure"\npoints = 90', 'id = "pure"\npoints = 70')
    text = text.replace('condition = "one number suit only"\n', "")  # a user's row without a condition
    house = tmp_path / "house.toml"
    house.write_text(text)
    data = json.loads(_rules_command("--rules", house, "--json").stdout)
    pure = data["rows"][ROW_IDS.index("pure")]
    assert pure["points"] == 70 and pure["condition"] == "" and data["path"] == str(house)
    bad = _rules_command("--rules", tmp_path / "missing.toml")
    assert bad.exit_code == 2 and "missing.toml" in bad.output


def test_rule_docs_explain_every_row_and_shape():
    text = (ROOT / "docs" / "rules.md").read_text()
    for rid in LRC_IDS:
        assert f"`{rid}`" in text, rid
    for shape in ("standard", "nico_nico", "thirteen_orphans", "sixteen_orphans"):
        assert f"(`{shape}`)" in text, shape
    for heading in ("## Shapes", "## Rows", "## Totals", "## Waits", "## Decisions", "## Sources"):
        assert heading in text


def test_docs_point_only_to_files_in_the_repository():
    """No user-facing page or help text names the specification file, and every relative link resolves."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text()
        assert "RULES.md" not in text, page.name
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"
    from click.testing import CliRunner

    from fastscore.cli import app

    for command in ([], *([name] for name in app.list_commands(None))):
        out = CliRunner().invoke(app, [*command, "--help"]).stdout
        assert "RULES.md" not in out, command
    package = ROOT / "fastscore"  # docstrings (help()) and the rule table a user copies
    for path in [*sorted(package.rglob("*.py")), package / "rules.toml"]:
        assert "RULES.md" not in path.read_text(), path.relative_to(ROOT)


@pytest.mark.parametrize("name", list(PROFILES))
def test_packed_table_in_python_equals_the_compiled_packing(name):
    """``RuleTable.packed`` runs ``pack_rules`` as Python (no compile at a cold start); the survey kernel
    packs with the compiled build. Both must give the same array, bit for bit."""
    from fastscore.kernels.evaluate import pack_rules

    table = load_rules(name)
    compiled = pack_rules(table.kernel_args)
    assert table.packed.dtype == compiled.dtype == np.int64
    assert np.array_equal(table.packed, compiled)
