"""Timing events of a win (docs/rules.md, "Events"): their inputs, their checks, and the rows of the
taiwan profile that score them (docs/profiles/taiwan.md)."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pytest
from click.testing import CliRunner

import fastscore
from fastscore import Event, HandBatch, score, score_batch, waits
from fastscore.cli import app
from fastscore.events import EVENT_NAMES, event_fault, events_text, parse_events

TAIWAN = dict(rules="taiwan")
OPEN_HAND = "12456m 234567p 99s [111m]"  # waits on 3m only (an edge wait)
PING_HU = "123m456m789p234s55s67p"  # concealed, waits on 5p or 8p


# ---------------------------------------------------------------------------------------------- the rows

def test_after_gong_replaces_self_draw():
    # self_draw 1 + single_wait 1 = 2; on the gong's replacement tile after_gong 2 replaces self_draw:
    # single_wait 1 + after_gong 2 = 3 (mahjong16: du_ting 1 + gang_shang 2, no zimo).
    assert score(OPEN_HAND, "3m", self_drawn=True, seat="S", **TAIWAN).total == 2
    s = score(OPEN_HAND, "3m", self_drawn=True, seat="S", events="after_gong", **TAIWAN)
    assert s.rows == {"single_wait": 1, "after_gong": 2} and s.total == 3


def test_robbing_a_gong_is_a_discard_win():
    # 456m 789p 234s 55s 67p + [123m], 5p robbed from a gong: ping_hu 2 + robbing_gong 1 = 3, not concealed
    # (mahjong16: qiang_gang 1 + ping_hu 2).
    s = score("456m789p234s55s67p [123m]", "5p", seat="S", events="robbing_gong", **TAIWAN)
    assert s.rows == {"ping_hu": 2, "robbing_gong": 1} and s.total == 3


def test_last_tile_by_self_draw_and_on_a_discard():
    # 8p self-drawn as the last tile of the wall: concealed_self_draw 3 + last_tile_draw 1 = 4 (no ping_hu: self-drawn).
    s = score(PING_HU, "8p", self_drawn=True, seat="S", events="last_tile", **TAIWAN)
    assert s.rows == {"concealed_self_draw": 3, "last_tile_draw": 1} and s.total == 4
    # On the last discard: ping_hu 2 + concealed_hand 1 + last_tile_discard 1 = 4.
    s = score(PING_HU, "8p", seat="S", events="last_tile", **TAIWAN)
    assert s.rows == {"ping_hu": 2, "concealed_hand": 1, "last_tile_discard": 1} and s.total == 4


def test_heavenly_win_of_the_dealer():
    # 111122223333m 444p E, E self-drawn by the dealer on the dealt tiles: concealed_self_draw 3
    # + four_concealed_pongs 5 + single_wait 1 + dealer 1 + heavenly_win 32 = 42.
    s = score("111122223333m 444p E", "E", self_drawn=True, seat="E", events="heavenly", **TAIWAN)
    assert s.rows == {"concealed_self_draw": 3, "four_concealed_pongs": 5, "single_wait": 1, "dealer": 1,
                      "heavenly_win": 32}
    assert s.total == 42


def test_earthly_win_after_an_early_declared_ready():
    # The same tiles won on a discard, seat S, ready declared in the first go-around (Closing): concealed_hand 1
    # + single_wait 1 + four_concealed_pongs 5 + earthly_win 16 + earthly_ready 8 = 31 (ting, the closing row,
    # is 0 tai in taiwan_base: not in force).
    s = score("111122223333m 444p E", "E", seat="S", closing=True, events=["earthly", "ready_early"], **TAIWAN)
    assert s.rows == {"concealed_hand": 1, "single_wait": 1, "four_concealed_pongs": 5, "earthly_win": 16,
                      "earthly_ready": 8}
    assert s.total == 31
    # Declared with the first discard instead: heavenly_ready 16 for earthly_ready 8: 39.
    assert score("111122223333m 444p E", "E", seat="S", closing=True, events="earthly ready_first",
                 **TAIWAN).total == 39


def test_waits_count_an_event_only_in_the_way_it_can_happen():
    # 3m on a discard: single_wait 1; self-drawn as the gong's replacement: single_wait 1 + after_gong 2 = 3.
    assert waits(OPEN_HAND, seat="S", events="after_gong", **TAIWAN) == {"3m": {"discard": 1, "self_draw": 3}}
    # Robbing a gong: single_wait 1 + robbing_gong 1 = 2 on the discard; self_draw 1 + single_wait 1 = 2.
    assert waits(OPEN_HAND, seat="S", events="robbing_gong", **TAIWAN) == {"3m": {"discard": 2, "self_draw": 2}}


def test_the_lrc_table_has_no_event_rows():
    hands = fastscore.sample_winning(2_000, seed=5)
    plain = score_batch(hands)
    hands.events[:] = Event.LAST_TILE | Event.EARTHLY
    with_events = score_batch(hands)
    assert np.array_equal(plain.payout, with_events.payout)
    assert np.array_equal(plain.row_points, with_events.row_points)


def test_mahjong16_he_di_case():
    # mahjong16 tests/test_scoring.py @ 097843b1 test_he_di_detected: 2223334445566m [111m], 5m on the discard
    # after the last tile; they assert he_di.  last_tile_discard 1 + pure 8 + all_pongs 4
    # + three_concealed_pongs 2 (555m is completed by the discard) = 15, their total too.
    s = score("2223334445566m [111m]", "5m", seat="S", events="last_tile", **TAIWAN)
    assert s.rows == {"last_tile_discard": 1, "pure": 8, "all_pongs": 4, "three_concealed_pongs": 2}
    assert s.total == 15


# ---------------------------------------------------------------------------------------------- the inputs

def test_event_names_and_bits():
    assert EVENT_NAMES == ("last_tile", "after_gong", "robbing_gong", "heavenly", "earthly", "ready_first",
                           "ready_early", "human", "after_flower", "double_win", "triple_win", "great_chicken")
    assert parse_events("last_tile, after_gong") == parse_events(["after_gong", "last_tile"]) == 3
    assert parse_events(None) == parse_events("") == parse_events([]) == 0
    assert events_text(Event.HEAVENLY | Event.LAST_TILE) == "last_tile heavenly"
    with pytest.raises(ValueError, match="unknown event 'haitei'"):
        parse_events("haitei")
    assert parse_events(128) == parse_events("human") == Event.HUMAN
    assert parse_events("after_flower triple_win") == 256 + 1024
    assert parse_events("great_chicken") == 2048
    with pytest.raises(ValueError, match="not a set of event bits"):
        parse_events(4096)


@pytest.mark.parametrize("events, self_drawn, seat, closing, message", [
    ("after_gong", False, 1, False, "after_gong needs a self-drawn win"),
    ("robbing_gong", True, 1, False, "robbing_gong needs a win on a discard"),
    ("heavenly", True, 1, False, "heavenly needs a self-drawn win by the dealer"),
    ("heavenly", False, 0, False, "heavenly needs a self-drawn win by the dealer"),
    ("heavenly earthly", True, 0, False, "heavenly, earthly and human: two of them together"),
    ("earthly human", False, 1, False, "heavenly, earthly and human: two of them together"),
    ("heavenly human", True, 0, False, "heavenly, earthly and human: two of them together"),
    ("ready_first ready_early", False, 1, True, "ready_first and ready_early together"),
    ("ready_first", False, 1, False, "need closing"),
    ("after_flower", False, 1, False, "after_flower needs a self-drawn win"),
    ("double_win", True, 1, False, "double_win and triple_win need a win on a discard"),
    ("triple_win", True, 1, False, "double_win and triple_win need a win on a discard"),
    ("double_win triple_win", False, 1, False, "double_win and triple_win together"),
])
def test_an_event_the_win_cannot_have_is_refused(events, self_drawn, seat, closing, message):
    assert message in event_fault(parse_events(events), self_drawn, seat, closing)
    with pytest.raises(ValueError, match=message):
        score("111122223333m 444p E", "E", self_drawn=self_drawn, seat="ESWN"[seat], closing=closing,
              events=events, **TAIWAN)


def test_records_flag_bad_events_and_score_the_rest():
    records = [dict(hand=OPEN_HAND, win="3m", self_drawn=True, seat="S", events=e)
               for e in ("after_gong", None, "bogus", "robbing_gong", ["last_tile", "after_gong"])]
    for batch in (HandBatch.from_records(records), HandBatch.from_records(records * 300)):  # Python and compiled
        assert batch.events[:5].tolist() == [2, 0, 0, 0, 3]
        assert batch.error[:5].tolist() == [0, 0, 6, 6, 0]
        assert "unknown event 'bogus'" in batch.messages[2]
        assert "robbing_gong needs a win on a discard" in batch.messages[3]
        # 3 (single_wait 1 + after_gong 2), 2 (self_draw 1 + single_wait 1), flagged, flagged,
        # 4 (single_wait 1 + after_gong 2 + last_tile_draw 1).
        assert score_batch(batch, rules="taiwan").total[:5].tolist() == [3, 2, 0, 0, 4]


def test_arrow_columns_of_events():
    table = pa.table({"hand": [OPEN_HAND] * 4, "win": ["3m"] * 4, "self_drawn": [True] * 4, "seat": ["S"] * 4,
                      "events": pa.array(["after_gong", None, "last_tile", "after_gong"]).dictionary_encode()})
    batch = HandBatch.from_arrow(table)
    assert batch.events.tolist() == [2, 0, 1, 2] and not batch.error.any()
    ints = HandBatch.from_arrow(table.set_column(4, "events", pa.array([2, 0, 1, 200])))
    assert ints.events.tolist()[:3] == [2, 0, 1] and ints.error.tolist() == [0, 0, 0, 6]


def test_events_read_back_from_written_hands(tmp_path):
    from fastscore.io import hand_records

    batch = HandBatch.from_records([dict(hand=OPEN_HAND, win="3m", self_drawn=True, events="last_tile after_gong"),
                                    dict(hand=OPEN_HAND, win="3m")])
    records = hand_records(batch)
    assert [r["events"] for r in records] == ["last_tile after_gong", None]
    assert HandBatch.from_records(records).events.tolist() == [3, 0]


def test_cli_score_and_batch_with_events(tmp_path):
    runner = CliRunner()
    out = runner.invoke(app, ["score", OPEN_HAND, "--win", "3m", "--self-drawn", "--seat", "S", "--profile", "taiwan",
                              "--event", "after_gong", "--event", "last_tile", "--json"])
    assert out.exit_code == 0, out.output
    # single_wait 1 + after_gong 2 + last_tile_draw 1 = 4
    assert json.loads(out.output)["total"] == 4
    bad = runner.invoke(app, ["score", OPEN_HAND, "--win", "3m", "--profile", "taiwan", "--event", "after_gong"])
    assert bad.exit_code != 0 and "after_gong needs a self-drawn win" in bad.output
    path = tmp_path / "hands.csv"
    path.write_text(f"hand,win,self_drawn,seat,events\n{OPEN_HAND},3m,true,S,after_gong\n{OPEN_HAND},3m,true,S,\n")
    result = runner.invoke(app, ["batch", str(path), "--profile", "taiwan", "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["total"] for r in rows] == [3, 2]


def test_mahjong16_ren_hu_cases():
    # mahjong16 tests/test_scoring.py @ 097843b1 test_ren_hu_detected_before_any_melds: 111122223333m 444p E,
    # E on the third discard of the hand, no claim yet; their table sets ren_hu 16, as mahjong_masters does.
    # taiwan-masters: concealed_hand 1 + single_wait 1 + four_concealed_pongs 5 + human_win 16 = 23.
    s = score("111122223333m 444p E", "E", seat="S", events="human", rules="taiwan-masters")
    assert s.rows == {"concealed_hand": 1, "single_wait": 1, "four_concealed_pongs": 5, "human_win": 16}
    assert s.total == 23
    # taiwan (taiwan_base) gives ren_hu 0: not in force, 1 + 1 + 5 = 7.
    assert score("111122223333m 444p E", "E", seat="S", events="human", **TAIWAN).total == 7
    # test_ren_hu_blocked_after_open_meld: 2223334445566m [111m], 6m on a discard after a claim: no event
    # human (the caller does not give it): pure 8 + all_pongs 4 + three_concealed_pongs 2 = 14 in taiwan, and
    # in taiwan-masters (pure 8, all_pongs 4, three_concealed_pongs 2 there too) also 14.
    assert score("2223334445566m [111m]", "6m", seat="S", rules="taiwan-masters").rows == {
        "pure": 8, "all_pongs": 4, "three_concealed_pongs": 2}
