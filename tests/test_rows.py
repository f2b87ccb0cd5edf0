"""fastscore.kernels.rows: the row registry, its predicates and the generated evaluators (RULES.md section 4)."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import fastscore
from fastscore import rules
from fastscore.kernels import codegen, rows
from fastscore.kernels.features import HONOURS, N_FIELDS, SHAPE_NAMES, Features, Shape, record_with_win, store_record

RULES_TOML = Path(str(resources.files("fastscore").joinpath("rules.toml")))
CONTEXT_FIELDS = ("word", "self_drawn", "concealed", "closing", "flowers", "seat", "round_wind", "streak", "win",
                  "exposed_sets", "events")
PROFILE_TOMLS = [Path(str(resources.files("fastscore").joinpath(path))) for path in fastscore.profiles.PROFILES.values()]


def table_rows(path: Path = RULES_TOML) -> dict:
    return {row["id"]: row for row in tomllib.loads(path.read_text())["row"]}


#: The evaluators' ``hi``: every row of the high row word in force.
EVERY_HIGH_ROW = (1 << rows.WORD_BITS) - 1


def joined(evaluated) -> tuple[int, int]:
    """An evaluator's ``(rows, rows_hi, units)`` as ``(rows of both words as one int, bit r for row r; units)``."""
    low, high, units = (int(v) for v in evaluated)
    assert 0 <= low < 1 << rows.WORD_BITS and 0 <= high < 1 << rows.WORD_BITS
    return low | high << rows.WORD_BITS, units


def mask(low, high) -> int:
    """Two row words as one int, bit r for row r."""
    return int(low) | int(high) << rows.WORD_BITS


# ---------------------------------------------------------------------------------------------- the registry


def test_every_registry_row_is_in_some_profile_and_back():
    tables = [table_rows(path) for path in PROFILE_TOMLS]
    assert set().union(*tables) == set(rows.ROW_IDS)
    assert len(rows.REGISTRY) == len(rows.ROW_IDS) == len(set(rows.ROW_IDS))
    # the column order is the registry's: the LRC rows first, in RULES.md order, as the LRC table lists them
    assert list(tables[0]) == list(rows.ROW_IDS[:45])
    assert rules.ROW_IDS is rows.ROW_IDS and fastscore.ROW_IDS is rows.ROW_IDS


@pytest.mark.parametrize("path", PROFILE_TOMLS, ids=lambda p: p.stem)
def test_table_shapes_are_among_the_registry_shapes(path):
    """A packaged table row names only shapes whose record carries what its predicate reads."""
    table = table_rows(path)
    for row in rows.REGISTRY:
        if row.id in table:
            assert set(table[row.id]["shapes"]) <= set(row.shapes), row.id


def test_tiered_rows_have_tiers_in_the_table():
    table = table_rows()
    for row in rows.REGISTRY[:45]:
        points = table[row.id]["points"]
        assert isinstance(points, list) == bool(row.tiers), row.id
        if row.tiers:
            assert len(points) == row.tiers


def test_derived_constants_follow_the_registry():
    assert rows.DEALER_ROWS == ("mahjong_base", "east_wins", "streak_bonus")
    assert rows.TIERED_ROWS == {"nico_quad_pairs": 3}
    assert [rows.ROW_IDS[r] for r in rows.UNIT_ROWS] == [
        "seat_flower", "flower_set", "wind_pong", "dragon_pong", "nico_quad_pairs", "streak_bonus", "dealer_streak",
        "non_seat_wind_pong", "concealed_gong", "mixed_flower", "seat_flower_outside_set", "linear_pongs",
        "double_brothers", "pure_double_chow", "double_mixed_chow", "linear_chows"]
    assert [rows.ROW_IDS[r] for r in range(rows.N_ROWS)
            if (mask(rows.SELF_DRAWN_BITS, rows.SELF_DRAWN_BITS_HI) >> r) & 1] == [
        "three_concealed_pongs", "four_concealed_pongs", "five_concealed_pongs", "ping_hu", "two_concealed_pongs",
        "all_concealed_pongs"]
    assert rows.N_ROWS > rows.WORD_BITS  # the catalog uses both row words
    for r, row in enumerate(rows.REGISTRY):
        assert rows.BIT[row.id] == r
        assert (rows.UNIT_MASK[r] != 0) == (row.max_units > 1)
        assert row.max_units <= rows.UNIT_MASK[r] or row.max_units == 1
        for s, name in enumerate(SHAPE_NAMES):
            assert bool((mask(*rows.SHAPE_ROWS[s]) >> r) & 1) == (name in row.shapes)
    # the fields of the units word do not overlap
    fields = [int(rows.UNIT_MASK[r]) << int(rows.UNIT_SHIFT[r]) for r in rows.UNIT_ROWS]
    assert sum(fields) == int(np.bitwise_or.reduce(fields)) < 1 << 63


def test_a_table_without_shapes_takes_the_registry_shapes(tmp_path):
    text = RULES_TOML.read_text()
    path = tmp_path / "rules.toml"
    path.write_text("\n".join(line for line in text.splitlines() if not line.startswith("shapes = ")))
    bare, packaged = rules.load_rules(path), rules.load_rules()
    assert np.array_equal(bare.in_force, packaged.in_force)
    for r in np.flatnonzero(bare.in_force):
        assert [SHAPE_NAMES[s] for s in np.flatnonzero(bare.shape_mask[:, r])] == list(rows.REGISTRY[r].shapes)
    # the packaged table takes the same shapes but for the context rows that it keeps out of some shapes
    assert (bare.shape_mask | ~packaged.shape_mask).all()


# ---------------------------------------------------------------------------------------------- the evaluators


def random_features(rng, n):
    """Records with random context and interpretation fields (not all of them possible hands)."""
    for _ in range(n):
        yield Features(
            word=int(rng.integers(0, 128)), self_drawn=int(rng.integers(0, 2)), concealed=int(rng.integers(0, 2)),
            closing=int(rng.integers(0, 2)), flowers=int(rng.integers(0, 256)), seat=int(rng.integers(0, 4)),
            round_wind=int(rng.integers(0, 4)), streak=int(rng.integers(0, 4)), win=int(rng.integers(0, 34)),
            shape=int(rng.integers(0, 4)), pongs=int(rng.integers(0, 1 << 34)) & int(rng.integers(0, 1 << 34)),
            concealed_pongs=int(rng.integers(0, 1 << 34)) & int(rng.integers(0, 1 << 34))
            & int(rng.integers(0, 1 << 34)),
            gongs=sum(1 << int(t) for t in rng.choice(34, size=int(rng.integers(0, 6)), replace=False)),
            sheungs_m=int(rng.integers(0, 128)), sheungs_p=int(rng.integers(0, 128)),
            sheungs_s=int(rng.integers(0, 128)), concealed_m=int(rng.integers(0, 128)),
            concealed_p=int(rng.integers(0, 128)), concealed_s=int(rng.integers(0, 128)),
            n_sheungs=int(rng.integers(0, 6)), eyes=int(rng.integers(-1, 34)), single_wait=int(rng.integers(0, 2)),
            quads=int(rng.integers(0, 4)), orphans_m=int(rng.integers(0, 512)), orphans_p=int(rng.integers(0, 512)),
            orphans_s=int(rng.integers(0, 512)), exposed_sets=int(rng.integers(0, 6)), events=int(rng.integers(0, 128)),
            pairs=int(rng.integers(0, 1 << 34)) & int(rng.integers(0, 1 << 34)),
            sheung_counts=int(rng.integers(0, 1 << 62)) & int(rng.integers(0, 1 << 62)) & int(rng.integers(0, 1 << 62)),
        )


@pytest.fixture(scope="module")
def records():
    return list(random_features(np.random.default_rng(18), 300))


def test_evaluate_is_every_predicate(records):
    for f in records:
        got_rows, got_units = joined(rows.evaluate(f, EVERY_HIGH_ROW))
        expected = 0
        for r, row in enumerate(rows.REGISTRY):
            u = int(row.predicate(f))
            assert u >= 0
            expected |= (u != 0) << r
            if r in rows.UNIT_ROWS:
                assert (got_units >> rows.UNIT_SHIFT[r]) & rows.UNIT_MASK[r] == min(u, rows.UNIT_MASK[r]), row.id
            else:
                assert u <= 1, row.id
        assert got_rows == expected


def test_the_scoped_evaluators_split_the_rows(records):
    for f in records:
        every = joined(rows.evaluate(f, EVERY_HIGH_ROW))
        hand = joined(rows.evaluate_hand(f, EVERY_HIGH_ROW))
        interpretation = joined(rows.evaluate_interpretation(f, EVERY_HIGH_ROW))
        hand_bits = mask(rows.HAND_BITS, rows.HAND_BITS_HI)
        assert hand[0] & ~hand_bits == 0 and interpretation[0] & hand_bits == 0
        assert hand[0] | interpretation[0] == every[0]
        assert hand[1] & interpretation[1] == 0 and hand[1] | interpretation[1] == every[1]


def test_hand_rows_read_only_the_context(records):
    """Rows of scope ``hand`` are evaluated once per win, on a record with blank interpretation fields."""
    for f in records:
        blank = Features(**{name: (getattr(f, name) if name in CONTEXT_FIELDS else 0) for name in Features._fields})
        assert rows.evaluate_hand(f, EVERY_HIGH_ROW) == rows.evaluate_hand(blank._replace(shape=-1, eyes=-1),
                                                                           EVERY_HIGH_ROW)


def test_interpretation_rows_read_self_draw_only_when_flagged(records):
    """Waits analysis scores the self-drawn win by evaluating again the rows of scope ``hand`` and the
    interpretation rows flagged ``reads_self_drawn`` (:data:`fastscore.kernels.rows.evaluate_self_drawn`)."""
    flagged = mask(rows.SELF_DRAWN_BITS, rows.SELF_DRAWN_BITS_HI)
    read = 0
    for f in records:
        other = f._replace(self_drawn=1 - f.self_drawn)
        a = joined(rows.evaluate_interpretation(f, EVERY_HIGH_ROW))
        b = joined(rows.evaluate_interpretation(other, EVERY_HIGH_ROW))
        assert a[0] & ~flagged == b[0] & ~flagged and a[1] == b[1]
        assert joined(rows.evaluate_self_drawn(f, EVERY_HIGH_ROW))[0] == a[0] & flagged
        read |= a[0] ^ b[0]
    assert read & ~flagged == 0
    f = records[0]._replace(n_sheungs=5, word=1, flowers=0, win=4, concealed_m=1 << 4, shape=0)
    assert rows.ping_hu(f._replace(self_drawn=0)) == 1 and rows.ping_hu(f._replace(self_drawn=1)) == 0


def test_only_the_win_rows_read_the_winning_tile(records):
    """The survey scores the 17 tiles' interpretations once and re-evaluates, for each winning kind, only
    the rows flagged ``reads_win`` (kernels/survey.py): every other row must ignore ``win`` and ``single_wait``."""
    rng = np.random.default_rng(7)
    win_bits = mask(rows.WIN_BITS, rows.WIN_BITS_HI)
    assert win_bits == sum(1 << rows.BIT[rid] for rid in ("single_wait", "good_eyes", "three_concealed_pongs",
                                                          "four_concealed_pongs", "five_concealed_pongs", "ping_hu",
                                                          "two_concealed_pongs", "false_solo", "pung_wait",
                                                          "super_eight_pairs", "true_solo"))
    for f in records:
        moved = f._replace(win=int(rng.integers(0, 34)), single_wait=1 - f.single_wait)
        for g in (f, moved):
            every_rows, every_units = joined(rows.evaluate(g, EVERY_HIGH_ROW))
            assert joined(rows.evaluate_win(g, EVERY_HIGH_ROW)) == (every_rows & win_bits, every_units & rows.WIN_UNITS)
        a, b = joined(rows.evaluate(f, EVERY_HIGH_ROW)), joined(rows.evaluate(moved, EVERY_HIGH_ROW))
        assert a[0] & ~win_bits == b[0] & ~win_bits and a[1] & ~rows.WIN_UNITS == b[1] & ~rows.WIN_UNITS
    # ... and the flags are not idle: each flagged row does read it (good eyes of Nico Nico: the winning tile)
    nico = records[0]._replace(shape=int(Shape.NICO_NICO), eyes=-1)
    assert rows.good_eyes(nico._replace(win=1)) == 1 and rows.good_eyes(nico._replace(win=0)) == 0
    assert rows.single_wait(nico._replace(single_wait=1)) == 1
    assert rows.REGISTRY[rows.BIT["true_solo"]].predicate(nico._replace(single_wait=1)) == 1
    assert rows.REGISTRY[rows.BIT["true_solo"]].predicate(nico._replace(single_wait=0)) == 0


def test_a_stored_record_comes_back_with_another_win(records):
    store = np.zeros((1, N_FIELDS), dtype=np.int64)
    for f in records[:20]:
        store_record(store, 0, f)
        assert record_with_win(store, 0, 5, 1) == f._replace(win=5, single_wait=1)


def test_wind_pong_units():
    # East and South pongs, seat South, round East: 2 pongs + seat bonus + round bonus
    f = next(random_features(np.random.default_rng(0), 1))._replace(pongs=(1 << 27) | (1 << 28), seat=1, round_wind=0)
    assert rows.wind_pong(f) == 4
    assert rows.wind_pong(f._replace(pongs=0)) == 0


def test_generated_evaluators_use_the_disk_cache():
    """Generated from the registry with ``exec``, yet under the file name of codegen.py, so numba can cache them."""
    from numba.core.caching import NullCache

    for func in (rows.evaluate, rows.evaluate_hand, rows.evaluate_interpretation):
        assert not isinstance(func._cache, NullCache)
        assert Path(func.py_func.__code__.co_filename) == Path(codegen.__file__)
    names = {func._cache._cache_file._index_name for func in (rows.evaluate, rows.evaluate_hand,
                                                               rows.evaluate_interpretation)}
    assert len(names) == 3


def test_shape_enum_is_shared():
    assert rules.Shape is Shape is fastscore.Shape


def test_the_high_row_word_is_evaluated_only_when_asked(records):
    """A table with no row of the high word in force (``RP_LIVE_HI`` 0: the LRC and taiwan tables) skips
    those predicates: the evaluators give the low word and its units alone."""
    high_units = sum(int(rows.UNIT_MASK[r]) << int(rows.UNIT_SHIFT[r]) for r in range(rows.WORD_BITS, rows.N_ROWS))
    for f in records:
        low, high, units = rows.evaluate(f, 0)
        every_low, _, every_units = rows.evaluate(f, EVERY_HIGH_ROW)
        assert high == 0 and low == every_low and units == every_units & ~high_units


def test_a_row_of_the_high_word_in_force_is_evaluated_alone(records):
    """``hi`` names the rows of the high word in force; their predicates run (in blocks of
    ``codegen.HIGH_BLOCK`` or of one gate), so one row in force gets its own bit and units, whatever the others."""
    for r in range(rows.WORD_BITS, rows.N_ROWS):
        bit = 1 << (r - rows.WORD_BITS)
        field = int(rows.UNIT_MASK[r]) << int(rows.UNIT_SHIFT[r])
        for f in records[:40]:
            _, high, units = rows.evaluate(f, bit)
            _, every_high, every_units = rows.evaluate(f, EVERY_HIGH_ROW)
            assert high & bit == every_high & bit and units & field == every_units & field, rows.ROW_IDS[r]


def sparse_features(rng, n):
    """Records as :func:`random_features`, with a hand's few pongs (0 to 5 kinds), sheungs (0 to 5 starts,
    the concealed ones among them) and sheung counts: the gates of the rows are false for most of them."""
    for f in random_features(rng, n):
        pongs = sum(1 << int(t) for t in rng.choice(34, size=int(rng.integers(0, 6)), replace=False))
        starts = [0, 0, 0]
        counts = 0
        for _ in range(int(rng.integers(0, 6))):
            suit, start = int(rng.integers(0, 3)), int(rng.integers(0, 7))
            starts[suit] |= 1 << start
            counts += 1 << (3 * (7 * suit + start))
        hidden = [m & int(rng.integers(0, 128)) for m in starts]
        yield f._replace(pongs=pongs, concealed_pongs=pongs & f.concealed_pongs, sheungs_m=starts[0],
                         sheungs_p=starts[1], sheungs_s=starts[2], concealed_m=hidden[0], concealed_p=hidden[1],
                         concealed_s=hidden[2], sheung_counts=counts, eyes=int(rng.integers(-1, 34)))


def test_a_gate_holds_whenever_its_rows_fire(records):
    """A row's gate (``Row.gate``) lets the evaluators skip its rows: it must hold on every record where one of
    them fires.  Dense random records, and sparse ones on which most gates are false."""
    gated = [row for row in rows.REGISTRY if row.gate is not None]
    assert {row.gate.__name__ for row in gated} == {"repeated_start", "near_pongs", "straight_starts", "few_starts"}
    closed = 0
    for f in records + list(sparse_features(np.random.default_rng(5), 20_000)):
        for row in gated:
            if not row.gate(f):
                closed += 1
                assert row.predicate(f) == 0, (row.id, f)
    # Most of the sparse records close most gates: the check above is not vacuous.
    assert closed > 10 * 20_000


def test_the_gated_evaluators_agree_with_the_predicates():
    """The evaluators, gates and all, give every row's bit and units as its predicate does (sparse records)."""
    for f in sparse_features(np.random.default_rng(6), 3_000):
        got_rows, got_units = joined(rows.evaluate(f, EVERY_HIGH_ROW))
        for r, row in enumerate(rows.REGISTRY):
            u = int(row.predicate(f))
            assert (got_rows >> r) & 1 == (u != 0), row.id
            if r in rows.UNIT_ROWS:
                assert (got_units >> rows.UNIT_SHIFT[r]) & rows.UNIT_MASK[r] == min(u, rows.UNIT_MASK[r]), row.id


def test_a_generated_evaluator_skips_the_rows_of_a_closed_gate(records):
    """The source codegen.evaluator compiles runs the rows of a gate, in either row word, only when the gate
    holds.  Run here as plain Python (a compiled test evaluator would be cached under codegen.py's name and
    outlive a change of this test).  The gate does not hold whenever its rows fire, as a row's gate must:
    so that skipping them shows."""
    namespace = {"np": np, "_p0": lambda f: int(f.eyes >= 0), "_p1": lambda f: f.seat,
                 "_p64": lambda f: int(f.flowers != 0), "_gclosing": lambda f: f.closing}
    gates = {1: "closing", 64: "closing"}
    exec(codegen.high_source("test_high", (0, 1, 64), {1: 0}, 63, gates), namespace)
    namespace["_high"] = namespace["test_high"]
    source = codegen.evaluator_source("test_evaluate", (0, 1, 64), {1: 0}, 63, gates)
    assert "    if _gclosing(f):" in source
    exec(source, namespace)
    seen = set()
    for f in records:
        low, high, units = namespace["test_evaluate"](f, 2)
        seat_fires = f.closing == 1 and f.seat != 0
        assert low == int(f.eyes >= 0) | int(seat_fires) << 1, f
        assert units == (f.seat if seat_fires else 0)
        assert high == int(f.closing == 1 and f.flowers != 0) << 1
        seen.add((f.closing, f.seat != 0))
    assert seen == {(0, False), (0, True), (1, False), (1, True)}


def test_the_sheung_count_rows_over_every_count(records):
    """The rows that read ``sheung_counts`` work on all 21 three-bit fields at once; here, against a plain
    loop over the fields, on every way to place up to five sheungs (hk-taiwanese s-1 to s-7)."""
    from itertools import combinations_with_replacement

    def plain(counts):
        at = [[counts.get((suit, start), 0) for start in range(7)] for suit in range(3)]
        by_start = [sum(at[suit][start] for suit in range(3)) for start in range(7)]
        return {
            "pure_double_chow": sum((at[suit][k] == 2) * (by_start[k] <= 3) for suit in range(3) for k in range(7)),
            "pure_triple_chow": int(any(3 in (at[0][k], at[1][k], at[2][k]) and by_start[k] == 3 for k in range(7))),
            "pure_quadruple_chow": int(any(at[suit][k] == 4 for suit in range(3) for k in range(7))),
            "double_mixed_chow": sum(sum(at[suit][k] > 0 for suit in range(3)) == 2 and by_start[k] in (2, 3)
                                     for k in range(7)),
            "quadruple_mixed_chow": int(4 in by_start),
            "quintuple_mixed_chow": int(5 in by_start),
            "linear_chows": sum(min(at[suit][0], at[suit][6]) for suit in range(3)),
        }

    base = records[0]._replace(shape=int(Shape.STANDARD))
    places = [(suit, start) for suit in range(3) for start in range(7)]
    checked = 0
    for n in range(6):
        for chosen in combinations_with_replacement(places, n):
            counts = {}
            for place in chosen:
                counts[place] = counts.get(place, 0) + 1
            if max(counts.values(), default=0) > 4:
                continue  # at most four of one sheung
            word = sum(c << (3 * (7 * suit + start)) for (suit, start), c in counts.items())
            f = base._replace(sheung_counts=word)
            got = {rid: int(rows.REGISTRY[rows.BIT[rid]].predicate(f)) for rid in plain({})}
            assert got == plain(counts), chosen
            checked += 1
    # 1 + 21 + 231 + 1,771 + 10,626 + 53,130 multisets of 0 to 5 places, less the 21 of five identical sheungs
    assert checked == 65_759


def test_with_x_over_every_standard_reading(records):
    """mixed_with_x and pure_with_x find the number X for all numbers at once; here, against a plain search
    for X, on records of standard readings: two pongs or gongs, two sheungs (starts and suits) and the eyes."""
    rng = np.random.default_rng(11)
    base = records[0]._replace(shape=int(Shape.STANDARD))
    for _ in range(20_000):
        pongs = [int(t) for t in rng.integers(0, 34, size=int(rng.integers(0, 4)))]
        sheungs = [(int(suit), int(start)) for suit, start in rng.integers(0, [3, 7], size=(int(rng.integers(0, 4)), 2))]
        eyes = int(rng.integers(0, 34))
        masks = [0, 0, 0]
        for suit, start in sheungs:
            masks[suit] |= 1 << start
        f = base._replace(pongs=sum(1 << t for t in set(pongs)), sheungs_m=masks[0], sheungs_p=masks[1],
                          sheungs_s=masks[2], eyes=eyes)

        def holds(x):  # X = x + 1: every number group holds it
            return (all(t >= 27 or t % 9 == x for t in pongs) and all(start <= x <= start + 2 for _, start in sheungs)
                    and (eyes >= 27 or eyes % 9 == x))

        found = any(holds(x) for x in range(1, 8))
        honours = (f.word & HONOURS) != 0
        assert rows.REGISTRY[rows.BIT["mixed_with_x"]].predicate(f) == (found and honours)
        assert rows.REGISTRY[rows.BIT["pure_with_x"]].predicate(f) == (found and not honours)
