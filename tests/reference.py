"""Reference scorer: a slow, plainly written implementation of RULES.md.

This module is the test oracle for ``fastscore``.  It shares nothing with the
fast implementation except the hand parser (``fastscore.tiles``) and the rule
table file (``fastscore/rules.toml`` or another profile's, read here with ``tomllib``).  Every
point value comes from the table; the *predicates* (when a row fires, and how
many units it scores) are written here from RULES.md, one small function per
row.

How a hand is scored (RULES.md sections 3-6):

1. List every interpretation of the 17 tiles: every standard decomposition,
   Nico Nico, every 13 Orphans split, 16 Orphans (section 3).
2. For each interpretation, find the rows whose predicate holds and whose
   ``shapes`` (in the table) include the interpretation's shape.  A row scores
   unless a *scoring* row lists it in ``replaces`` (not transitive).
3. Add up ``points``, apply the Chicken and the round minimum, add the dealer
   rows (section 6).
4. Pay the best interpretation: highest payout, then highest points, then the
   lowest index in the order of section 9.13.

Public functions: :func:`score`, :func:`waits`, :func:`wait_kinds`.
"""

from __future__ import annotations

import functools
from functools import cached_property
import itertools
import sys
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

try:
    from fastscore import tiles as _tiles
except ImportError:  # running from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from fastscore import tiles as _tiles

parse_hand = _tiles.parse_hand
parse_tile = _tiles.parse_tile
parse_flowers = _tiles.parse_flowers
SetKind = _tiles.SetKind
WINDS = _tiles.WINDS
TILE_NAMES = _tiles.TILE_NAMES

DEFAULT_RULES_PATH = Path(_tiles.__file__).resolve().parent / "rules.toml"

__all__ = ["score", "waits", "wait_kinds", "load_rules"]

# ---------------------------------------------------------------------------
# Tiles (RULES.md section 1)
# ---------------------------------------------------------------------------

N_KINDS = 34
CHARACTERS, DOTS, BAMBOO, WIND_SUIT, DRAGON_SUIT = 0, 1, 2, 3, 4
NUMBER_SUITS = (CHARACTERS, DOTS, BAMBOO)
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
# 1 and 9 of each number suit, and the 7 honours (13 Orphans).
ORPHAN_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
HONOUR_KINDS = tuple(range(27, 34))
SHAPES = ("standard", "nico_nico", "thirteen_orphans", "sixteen_orphans")


def suit_of(tile: int) -> int:
    """0 characters, 1 dots, 2 bamboo, 3 winds, 4 dragons (the five suits)."""
    if tile < 27:
        return tile // 9
    return WIND_SUIT if tile <= NORTH else DRAGON_SUIT


def is_number(tile: int) -> bool:
    return tile < 27


def is_wind(tile: int) -> bool:
    return EAST <= tile <= NORTH


def is_dragon(tile: int) -> bool:
    return WHITE <= tile <= RED


def number_of(tile: int) -> int:
    """1..9 for a number tile."""
    return tile % 9 + 1


def is_two_five_eight(tile: int) -> bool:
    return is_number(tile) and number_of(tile) in (2, 5, 8)


def declared_tiles(kind: int, tile: int) -> list[int]:
    """The tiles of one declared set (a gong holds four)."""
    if kind == SetKind.SHEUNG:
        return [tile, tile + 1, tile + 2]
    if kind in (SetKind.GONG, SetKind.CONCEALED_GONG):
        return [tile] * 4
    return [tile] * 3


def is_exposed(kind: int) -> bool:
    """Exposed sheungs, pongs and gongs; a concealed gong is not exposed (section 2)."""
    return kind in (SetKind.SHEUNG, SetKind.PONG, SetKind.GONG)


# ---------------------------------------------------------------------------
# Rule table
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def load_rules(rules_path=None) -> dict:
    """Read the rule table: ``{"rows": {id: row}, "order": [ids], "minimum": [...], ...}``."""
    path = Path(rules_path) if rules_path is not None else DEFAULT_RULES_PATH
    with open(path, "rb") as f:
        data = tomllib.load(f)
    rows = {row["id"]: row for row in data["row"]}
    totals, payout = data.get("totals", {}), data.get("payout", {})
    return {
        "rows": rows,
        "order": [row["id"] for row in data["row"]],
        "minimum": list(totals.get("minimum", [20, 22, 24, 26])),
        "chicken": totals.get("chicken", True),
        "chicken_points": totals.get("chicken_points", 1),
        "pay_base": payout.get("base", 0),
        "pay_unit": payout.get("unit", 1),
        "win_shapes": tuple(data.get("win", {}).get("shapes", SHAPES)),
        "double": totals.get("double_interpretation", False),
        "counted_once": frozenset(totals.get("counted_once", ())),
    }


# ---------------------------------------------------------------------------
# Interpretations (RULES.md section 3)
# ---------------------------------------------------------------------------


@dataclass
class Run:
    """A sheung, or an orphan sheung of 16 Orphans: one suit, three numbers."""

    suit: int
    numbers: tuple  # e.g. (2, 3, 4) or (1, 4, 7)
    concealed: bool  # not an exposed declared set (section 2)

    @property
    def lowest(self) -> int:
        return self.numbers[0]


@dataclass
class Interpretation:
    shape: str  # one of SHAPES
    order_key: tuple  # section 9.13 tie order (smaller first)
    pongs: list = field(default_factory=list)  # tiles of pongs and gongs
    runs: list = field(default_factory=list)  # Run objects
    eyes: int | None = None  # tile of the eyes (standard and Orphans)
    quads: int = 0  # Nico Nico: fours of a kind held as two pairs


def sheung_ok(tile: int) -> bool:
    """Can ``tile`` start a sheung (three consecutive number tiles of one suit)?"""
    return is_number(tile) and number_of(tile) <= 7


def standard_splits(counts: list[int], sets_needed: int) -> list[tuple]:
    """Every distinct split of ``counts`` into ``sets_needed`` sets and one eyes.

    Each split is a sorted tuple of groups, a group being a sorted tuple of tile
    indices: eyes ``(t, t)``, pong ``(t, t, t)``, sheung ``(t, t+1, t+2)``.
    The result is sorted, which is the section 9.13 order.
    """
    found = set()
    counts = list(counts)

    def walk(groups: list, have_eyes: bool) -> None:
        first = next((t for t in range(N_KINDS) if counts[t]), None)
        if first is None:
            if have_eyes and len(groups) == sets_needed + 1:
                found.add(tuple(sorted(groups)))
            return
        t = first
        # the lowest tile left is the lowest tile of its group
        if not have_eyes and counts[t] >= 2:
            counts[t] -= 2
            walk(groups + [(t, t)], True)
            counts[t] += 2
        if counts[t] >= 3:
            counts[t] -= 3
            walk(groups + [(t, t, t)], have_eyes)
            counts[t] += 3
        if sheung_ok(t) and counts[t + 1] and counts[t + 2]:
            for u in (t, t + 1, t + 2):
                counts[u] -= 1
            walk(groups + [(t, t + 1, t + 2)], have_eyes)
            for u in (t, t + 1, t + 2):
                counts[u] += 1

    walk([], False)
    return sorted(found)


def standard_interpretations(concealed17: list[int], declared) -> list[Interpretation]:
    """Standard shape: five sets and eyes; declared sets count as sets (section 3)."""
    result = []
    for split in standard_splits(concealed17, 5 - len(declared)):
        interp = Interpretation("standard", (0, split))
        for group in split:
            if len(group) == 2:
                interp.eyes = group[0]
            elif group[0] == group[1]:
                interp.pongs.append(group[0])
            else:
                interp.runs.append(Run(suit_of(group[0]), tuple(number_of(t) for t in group), True))
        for kind, tile in declared:
            if kind == SetKind.SHEUNG:
                interp.runs.append(
                    Run(suit_of(tile), (number_of(tile), number_of(tile) + 1, number_of(tile) + 2), False)
                )
            else:  # a gong counts as a pong for every pong row (section 2)
                interp.pongs.append(tile)
        result.append(interp)
    return result


def nico_nico_interpretations(concealed17: list[int], declared) -> list[Interpretation]:
    """Seven pairs plus one pong, no declared set; four of a kind is two pairs (3, 5.1)."""
    if declared:
        return []
    odd = [t for t in range(N_KINDS) if concealed17[t] % 2 == 1]
    if len(odd) != 1 or concealed17[odd[0]] != 3:
        return []
    quads = sum(1 for t in range(N_KINDS) if concealed17[t] == 4)
    return [Interpretation("nico_nico", (1,), pongs=[odd[0]], quads=quads)]


def thirteen_orphans_interpretations(concealed17: list[int], declared) -> list[Interpretation]:
    """13 terminals/honours, one more as eyes, one further set (3, 9.11); every split."""
    if declared:
        return []
    if any(concealed17[t] < 1 for t in ORPHAN_KINDS):
        return []
    result = []
    for eyes in ORPHAN_KINDS:
        rest = list(concealed17)
        for t in ORPHAN_KINDS:
            rest[t] -= 1
        if rest[eyes] < 1:
            continue
        rest[eyes] -= 1
        held = [t for t in range(N_KINDS) for _ in range(rest[t])]  # three tiles, sorted
        interp = Interpretation("thirteen_orphans", (2, eyes, tuple(held)), eyes=eyes)
        if held[0] == held[1] == held[2]:
            interp.pongs.append(held[0])
        elif sheung_ok(held[0]) and held[1] == held[0] + 1 and held[2] == held[0] + 2:
            interp.runs.append(Run(suit_of(held[0]), tuple(number_of(t) for t in held), True))
        else:
            continue
        result.append(interp)
    return sorted(result, key=lambda i: i.order_key)


def is_orphan_sheung(numbers: list[int]) -> bool:
    """Three numbers of one suit pairwise at least 3 apart (147, 258, 369, ...)."""
    return len(numbers) == 3 and numbers[1] - numbers[0] >= 3 and numbers[2] - numbers[1] >= 3


def sixteen_orphans_interpretations(concealed17: list[int], declared) -> list[Interpretation]:
    """An orphan sheung per number suit, the 7 honours, one more of these as eyes (3)."""
    if declared:
        return []
    result = []
    for eyes in range(N_KINDS):
        if concealed17[eyes] < 2:
            continue
        rest = list(concealed17)
        rest[eyes] -= 1  # the other copy of the eyes is one of the sixteen tiles
        if any(rest[t] != 1 for t in HONOUR_KINDS):
            continue
        runs = []
        for suit in NUMBER_SUITS:
            tiles = range(9 * suit, 9 * suit + 9)
            if any(rest[t] > 1 for t in tiles):
                break
            numbers = [number_of(t) for t in tiles if rest[t] == 1]
            if not is_orphan_sheung(numbers):
                break
            runs.append(Run(suit, tuple(numbers), True))
        else:
            result.append(Interpretation("sixteen_orphans", (3,), runs=runs, eyes=eyes))
    return result


def all_interpretations(concealed17: list[int], declared, shapes=SHAPES) -> list[Interpretation]:
    """Every interpretation in one of ``shapes`` (the shapes that win under the table), in the section
    9.13 order."""
    found = (
        standard_interpretations(concealed17, declared)
        + nico_nico_interpretations(concealed17, declared)
        + thirteen_orphans_interpretations(concealed17, declared)
        + sixteen_orphans_interpretations(concealed17, declared)
    )
    return [interp for interp in found if interp.shape in shapes]


def has_any_shape(concealed17: list[int], declared, shapes=SHAPES) -> bool:
    return bool(all_interpretations(concealed17, declared, shapes))


# ---------------------------------------------------------------------------
# Waits (RULES.md sections 4.1 single_wait, 7, 9.10)
# ---------------------------------------------------------------------------


def held_counts(concealed: list[int], declared) -> list[int]:
    """Counts of every tile held, declared sets included (a gong is four)."""
    counts = list(concealed)
    for kind, tile in declared:
        for t in declared_tiles(kind, tile):
            counts[t] += 1
    return counts


@functools.lru_cache(maxsize=4096)
def _wait_kinds(concealed16: tuple, declared: tuple, shapes: tuple = SHAPES) -> tuple:
    held = held_counts(list(concealed16), declared)
    kinds = []
    for k in range(N_KINDS):
        if held[k] >= 4:  # all four already held: not a wait (section 7)
            continue
        concealed17 = list(concealed16)
        concealed17[k] += 1
        if has_any_shape(concealed17, declared, shapes):
            kinds.append(k)
    return tuple(kinds)


def wait_kinds(concealed16, declared, shapes=SHAPES) -> list[int]:
    """Tile kinds that complete the 16 tiles into any of ``shapes`` (default every shape; section 7).

    ``concealed16``: the concealed tiles before the win, either as 34 counts or
    as a list of tile indices.  ``declared``: ``(SetKind, tile)`` pairs.
    Kinds of which the hand already holds all four (declared sets counted) are
    left out.
    """
    concealed16 = list(int(c) for c in concealed16)
    if len(concealed16) != N_KINDS:  # a list of tile indices
        counts = [0] * N_KINDS
        for t in concealed16:
            counts[t] += 1
        concealed16 = counts
    declared = tuple((SetKind(int(kind)), int(tile)) for kind, tile in declared)
    return list(_wait_kinds(tuple(concealed16), declared, tuple(shapes)))


# ---------------------------------------------------------------------------
# The situation of the win (everything that is not the interpretation)
# ---------------------------------------------------------------------------


@dataclass
class Win:
    concealed16: tuple  # 34 counts, before the win
    declared: tuple  # (SetKind, tile) pairs
    win: int
    self_drawn: bool
    seat: int  # 0..3 = E S W N
    round: int  # 0..3
    flowers: tuple  # flower numbers 1..8
    streak: int
    closing: bool
    events: frozenset = frozenset()  # timing event names (docs/rules.md, Events)
    shapes: tuple = SHAPES  # the shapes that win under the table ([win] shapes)

    @cached_property
    def all_counts(self) -> list[int]:
        """All 17 tiles, declared sets and the winning tile included."""
        counts = held_counts(list(self.concealed16), self.declared)
        counts[self.win] += 1
        return counts

    @property
    def concealed_hand(self) -> bool:
        """No exposed declared set; concealed gongs allowed (section 2)."""
        return not any(is_exposed(kind) for kind, _ in self.declared)

    @cached_property
    def number_suits(self) -> set:
        return {suit_of(t) for t in range(27) if self.all_counts[t]}

    @cached_property
    def honours_held(self) -> set:
        return {t for t in HONOUR_KINDS if self.all_counts[t]}


# ---------------------------------------------------------------------------
# Row predicates (RULES.md section 4).  Each returns the number of units the
# row scores for this interpretation (0: the row does not fire).  Booleans
# count as 0 or 1.  Shapes are checked separately against the table.
# ---------------------------------------------------------------------------

# 4.1 Win and concealment


def row_self_draw(i: Interpretation, w: Win) -> int:
    return w.self_drawn


def row_concealed_hand(i: Interpretation, w: Win) -> int:
    return w.concealed_hand and not w.self_drawn


def row_concealed_self_draw(i: Interpretation, w: Win) -> int:
    return w.concealed_hand and w.self_drawn


def row_single_wait(i: Interpretation, w: Win) -> int:
    # a property of the 16 tiles, every shape that wins counted (4.1, 9.10)
    return len(_wait_kinds(w.concealed16, w.declared, w.shapes)) == 1


def row_closing(i: Interpretation, w: Win) -> int:
    return w.closing


# 4.2 Flowers


def row_no_flowers(i: Interpretation, w: Win) -> int:
    return not w.flowers


def flower_seat(flower: int) -> int:
    """Flower n (season n-4) belongs to seat n: East 1 .. North 4 (section 1)."""
    return (flower - 1) % 4


def row_seat_flower(i: Interpretation, w: Win) -> int:
    return sum(1 for f in w.flowers if flower_seat(f) == w.seat)


def row_flower_set(i: Interpretation, w: Win) -> int:
    all_flowers = all(f in w.flowers for f in (1, 2, 3, 4))
    all_seasons = all(f in w.flowers for f in (5, 6, 7, 8))
    return all_flowers + all_seasons


# 4.3 Suit composition (all tiles: concealed, declared, winning tile)


def row_all_five_suits(i: Interpretation, w: Win) -> int:
    honours = w.honours_held
    return (
        len(w.number_suits) == 3
        and any(is_wind(t) for t in honours)
        and any(is_dragon(t) for t in honours)
    )


def row_no_honours(i: Interpretation, w: Win) -> int:
    return not w.honours_held


def row_no_flower_no_honour(i: Interpretation, w: Win) -> int:
    return not w.honours_held and not w.flowers


def row_all_sheung_nfnh(i: Interpretation, w: Win) -> int:
    # five sets all sheungs (standard shape), no flowers, no honours (4.3, 9.7);
    # All Step-Up replaces it through the table (9.16)
    five_sheungs = i.shape == "standard" and len(i.runs) == 5 and not i.pongs
    return five_sheungs and not w.honours_held and not w.flowers


def row_semi_pure(i: Interpretation, w: Win) -> int:
    # exactly one number suit plus at least one honour (9.6)
    return len(w.number_suits) == 1 and bool(w.honours_held)


def row_pure(i: Interpretation, w: Win) -> int:
    return len(w.number_suits) == 1 and not w.honours_held


def jewel(w: Win, suit: int, dragon: int) -> bool:
    """Only ``suit`` and ``dragon``, both present; no wind, no other dragon (4.3, 9.5).

    In every shape a dragon tile held is part of a pong, gong or pair.
    """
    return w.number_suits == {suit} and w.honours_held == {dragon}


def row_jade(i: Interpretation, w: Win) -> int:
    return jewel(w, BAMBOO, GREEN)


def row_ruby(i: Interpretation, w: Win) -> int:
    return jewel(w, CHARACTERS, RED)


def row_sapphire(i: Interpretation, w: Win) -> int:
    return jewel(w, CHARACTERS, WHITE)


def row_diamond(i: Interpretation, w: Win) -> int:
    return jewel(w, DOTS, WHITE)


def row_all_honours(i: Interpretation, w: Win) -> int:
    return not w.number_suits


# 4.4 Honours (pongs include gongs; section 2)


def wind_pongs(i: Interpretation) -> list[int]:
    return [t for t in i.pongs if is_wind(t)]


def dragon_pongs(i: Interpretation) -> list[int]:
    return [t for t in i.pongs if is_dragon(t)]


def eyes_are_wind(i: Interpretation) -> bool:
    return i.eyes is not None and is_wind(i.eyes)


def eyes_are_dragon(i: Interpretation) -> bool:
    return i.eyes is not None and is_dragon(i.eyes)


def row_wind_pong(i: Interpretation, w: Win) -> int:
    # 1 per wind pong, +1 if the seat wind, +1 if the round wind (4.4, 9.19)
    units = 0
    for t in wind_pongs(i):
        units += 1
        units += (t - EAST) == w.seat
        units += (t - EAST) == w.round
    return units


def row_dragon_pong(i: Interpretation, w: Win) -> int:
    return len(dragon_pongs(i))


def row_little_three_winds(i: Interpretation, w: Win) -> int:
    return len(wind_pongs(i)) == 2 and eyes_are_wind(i)  # 9.9


def row_big_three_winds(i: Interpretation, w: Win) -> int:
    return len(wind_pongs(i)) == 3 and not eyes_are_wind(i)


def row_little_four_winds(i: Interpretation, w: Win) -> int:
    return len(wind_pongs(i)) == 3 and eyes_are_wind(i)


def row_big_four_winds(i: Interpretation, w: Win) -> int:
    return len(wind_pongs(i)) == 4


def row_little_three_dragons(i: Interpretation, w: Win) -> int:
    return len(dragon_pongs(i)) == 2 and eyes_are_dragon(i)


def row_big_three_dragons(i: Interpretation, w: Win) -> int:
    return len(dragon_pongs(i)) == 3


# 4.5 Sets


def row_all_pongs(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and len(i.pongs) == 5


def rises_by_one(numbers: list[int]) -> bool:
    """x, x+1, x+2, ... exactly (a repeated number does not qualify; 9.8)."""
    ordered = sorted(numbers)
    return all(b == a + 1 for a, b in zip(ordered, ordered[1:]))


def row_sister_sheungs(i: Interpretation, w: Win) -> int:
    # three sheungs, same numbers, one in each number suit (4.5; at most once, 9.1)
    for a, b, c in itertools.combinations(i.runs, 3):
        if {a.suit, b.suit, c.suit} == set(NUMBER_SUITS) and a.numbers == b.numbers == c.numbers:
            return 1
    return 0


def row_step_up_mixed(i: Interpretation, w: Win) -> int:
    # three suits, lowest numbers rise by one in any suit assignment (4.5, 9.2, 9.17)
    for trio in itertools.combinations(i.runs, 3):
        if {r.suit for r in trio} == set(NUMBER_SUITS) and rises_by_one([r.lowest for r in trio]):
            return 1
    return 0


def row_step_up_pure(i: Interpretation, w: Win) -> int:
    for trio in itertools.combinations(i.runs, 3):
        if len({r.suit for r in trio}) == 1 and rises_by_one([r.lowest for r in trio]):
            return 1
    return 0


def all_step_up(i: Interpretation) -> set | None:
    """The suits of a five-sheung All Step-Up (lowest numbers x..x+4), else None (9.8)."""
    if i.shape != "standard" or len(i.runs) != 5:
        return None
    if not rises_by_one([r.lowest for r in i.runs]):
        return None
    return {r.suit for r in i.runs}


def row_all_step_up_mixed(i: Interpretation, w: Win) -> int:
    return all_step_up(i) == set(NUMBER_SUITS)


def row_all_step_up_pure(i: Interpretation, w: Win) -> int:
    suits = all_step_up(i)
    return suits is not None and len(suits) == 1


DRAGON_NUMBERS = ((1, 2, 3), (4, 5, 6), (7, 8, 9))


def has_run(runs: list, suit: int, numbers: tuple) -> bool:
    return any(r.suit == suit and r.numbers == numbers for r in runs)


def pure_dragon_in(runs: list) -> bool:
    """123, 456, 789 of one suit."""
    return any(all(has_run(runs, s, n) for n in DRAGON_NUMBERS) for s in NUMBER_SUITS)


def mixed_dragon_in(runs: list) -> bool:
    """123, 456, 789 each in a different suit, any assignment (9.17)."""
    for suits in itertools.permutations(NUMBER_SUITS):
        if all(has_run(runs, s, n) for s, n in zip(suits, DRAGON_NUMBERS)):
            return True
    return False


def concealed_runs(i: Interpretation) -> list:
    return [r for r in i.runs if r.concealed]


def row_pure_dragon_concealed(i: Interpretation, w: Win) -> int:
    # only the three sheungs of the dragon must be concealed (9.3)
    return i.shape == "standard" and pure_dragon_in(concealed_runs(i))


def row_pure_dragon(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and pure_dragon_in(i.runs)


def row_mixed_dragon_concealed(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and mixed_dragon_in(concealed_runs(i))


def row_mixed_dragon(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and mixed_dragon_in(i.runs)


def row_good_eyes(i: Interpretation, w: Win) -> int:
    # Nico Nico looks at the winning tile (5.1, 9.4); others at the eyes (9.18)
    if i.shape == "nico_nico":
        return is_two_five_eight(w.win)
    return i.eyes is not None and is_two_five_eight(i.eyes)


# 4.6 Special hand values


def row_nico_nico(i: Interpretation, w: Win) -> int:
    return i.shape == "nico_nico"


def row_nico_quad_pairs(i: Interpretation, w: Win) -> int:
    return i.quads if i.shape == "nico_nico" else 0


def row_thirteen_orphans(i: Interpretation, w: Win) -> int:
    return i.shape == "thirteen_orphans"


def row_sixteen_orphans(i: Interpretation, w: Win) -> int:
    return i.shape == "sixteen_orphans"


# The other tables of the family (the taiwan profile; docs/profiles/taiwan.md), written from its rule text.


def exposed_pong_tiles(w: Win) -> set:
    return {tile for kind, tile in w.declared if kind in (SetKind.PONG, SetKind.GONG)}


def concealed_pongs_counted(i: Interpretation, w: Win) -> int:
    """Concealed pongs (concealed gongs included) as the Taiwanese tables count them: the pong a discard
    completes is exposed, unless the winning tile also fits one of the interpretation's concealed runs."""
    concealed = [t for t in i.pongs if t not in exposed_pong_tiles(w)]
    count = len(concealed)
    if not w.self_drawn and w.win in concealed:
        in_a_run = is_number(w.win) and any(
            run.concealed and run.suit == suit_of(w.win) and number_of(w.win) in run.numbers for run in i.runs)
        if not in_a_run:
            count -= 1
    return count


def row_three_concealed_pongs(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and concealed_pongs_counted(i, w) == 3


def row_four_concealed_pongs(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and concealed_pongs_counted(i, w) == 4


def row_five_concealed_pongs(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and concealed_pongs_counted(i, w) == 5


def row_round_wind_pong(i: Interpretation, w: Win) -> int:
    return EAST + w.round in i.pongs


def row_seat_wind_pong(i: Interpretation, w: Win) -> int:
    return EAST + w.seat in i.pongs


def two_sided(i: Interpretation, w: Win) -> bool:
    """The winning tile is an end of a concealed run whose other two tiles waited on both sides."""
    if not is_number(w.win):
        return False
    n = number_of(w.win)
    for run in i.runs:
        if run.concealed and run.suit == suit_of(w.win):
            if run.numbers == (n, n + 1, n + 2) and n + 2 != 9:
                return True
            if run.numbers == (n - 2, n - 1, n) and n - 2 != 1:
                return True
    return False


def row_ping_hu(i: Interpretation, w: Win) -> int:
    return (i.shape == "standard" and len(i.runs) == 5 and not w.honours_held and not w.flowers
            and not w.self_drawn and two_sided(i, w))


def row_all_exposed(i: Interpretation, w: Win) -> int:
    return sum(is_exposed(kind) for kind, _ in w.declared) == 5 and not w.self_drawn


def row_eight_flowers(i: Interpretation, w: Win) -> int:
    return set(w.flowers) == set(range(1, 9))


def row_dealer(i: Interpretation, w: Win) -> int:
    return w.seat == 0


def row_dealer_streak(i: Interpretation, w: Win) -> int:
    return w.streak if w.seat == 0 else 0


# Timing events: each scores only when the win can have it (the way it was won, the seat).

def row_last_tile_draw(i: Interpretation, w: Win) -> int:
    return "last_tile" in w.events and w.self_drawn


def row_last_tile_discard(i: Interpretation, w: Win) -> int:
    return "last_tile" in w.events and not w.self_drawn


def row_after_gong(i: Interpretation, w: Win) -> int:
    return "after_gong" in w.events and w.self_drawn


def row_robbing_gong(i: Interpretation, w: Win) -> int:
    return "robbing_gong" in w.events and not w.self_drawn


def row_heavenly_win(i: Interpretation, w: Win) -> int:
    return "heavenly" in w.events and w.self_drawn and w.seat == 0


def row_earthly_win(i: Interpretation, w: Win) -> int:
    return "earthly" in w.events


def row_heavenly_ready(i: Interpretation, w: Win) -> int:
    return "ready_first" in w.events and w.closing


def row_earthly_ready(i: Interpretation, w: Win) -> int:
    return "ready_early" in w.events and w.closing



# The HK-style Taiwanese rows of the catalog (docs/profiles/hk-taiwanese.md, written from its table and engine).


def row_missing_one_suit(i: Interpretation, w: Win) -> int:
    return len(w.number_suits) == 2


def row_all_sheungs(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and len(i.runs) == 5


def row_two_concealed_pongs(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and concealed_pongs_counted(i, w) == 2


def row_non_seat_wind_pong(i: Interpretation, w: Win) -> int:
    return sum(1 for t in wind_pongs(i) if t - EAST != w.seat)


def declared_concealed_gongs(w: Win) -> int:
    return sum(1 for kind, _ in w.declared if kind == SetKind.CONCEALED_GONG)


def row_concealed_gong(i: Interpretation, w: Win) -> int:
    return declared_concealed_gongs(w) if i.shape == "standard" else 0


def concealed_tiles_before_the_win(w: Win) -> int:
    """16 less three for each declared set (a gong too: its fourth tile is a replacement)."""
    return 16 - 3 * len(w.declared)


def row_seven_tile_hand(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and concealed_tiles_before_the_win(w) <= 7


def row_ten_tile_hand(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and concealed_tiles_before_the_win(w) == 10


def row_semi_beggar(i: Interpretation, w: Win) -> int:
    return sum(is_exposed(kind) for kind, _ in w.declared) == 5 and w.self_drawn


def row_all_concealed_pongs(i: Interpretation, w: Win) -> int:
    concealed = [t for t in i.pongs if t not in exposed_pong_tiles(w)]
    return i.shape == "standard" and len(concealed) == 5 and w.self_drawn


def loose_flowers(w: Win) -> list[int]:
    """The flowers that are not in a complete set of four (1-4 or 5-8)."""
    sets = [group for group in ((1, 2, 3, 4), (5, 6, 7, 8)) if all(f in w.flowers for f in group)]
    return [f for f in w.flowers if not any(f in group for group in sets)]


def row_mixed_flower(i: Interpretation, w: Win) -> int:
    return sum(1 for f in loose_flowers(w) if flower_seat(f) != w.seat)


def row_seat_flower_outside_set(i: Interpretation, w: Win) -> int:
    return sum(1 for f in loose_flowers(w) if flower_seat(f) == w.seat)



def held_kinds(w: Win) -> list[int]:
    return [t for t in range(N_KINDS) if w.all_counts[t]]


def is_terminal(t: int) -> bool:
    return is_number(t) and number_of(t) in (1, 9)


def row_all_simples(i: Interpretation, w: Win) -> int:
    return all(is_number(t) and 2 <= number_of(t) <= 8 for t in held_kinds(w))


def row_mixed_terminals(i: Interpretation, w: Win) -> int:
    kinds = held_kinds(w)
    return (all(is_terminal(t) or not is_number(t) for t in kinds) and any(not is_number(t) for t in kinds)
            and any(is_terminal(t) for t in kinds))


def row_pure_terminals(i: Interpretation, w: Win) -> int:
    return all(is_terminal(t) for t in held_kinds(w))


def standard_groups(i: Interpretation) -> list[list[int]]:
    """The tiles of each group of a standard interpretation: pongs, sheungs and the eyes."""
    groups = [[t] for t in i.pongs] + [[9 * run.suit + n - 1 for n in run.numbers] for run in i.runs]
    return groups + [[i.eyes]]


def outside(i: Interpretation) -> bool:
    return i.shape == "standard" and all(any(is_terminal(t) or not is_number(t) for t in g)
                                         for g in standard_groups(i))


def row_mixed_outside(i: Interpretation, w: Win) -> int:
    return outside(i) and bool(w.honours_held)


def row_pure_outside(i: Interpretation, w: Win) -> int:
    return outside(i) and not w.honours_held


def with_x(i: Interpretation) -> bool:
    if i.shape != "standard":
        return False
    number_groups = [g for g in standard_groups(i) if is_number(g[0])]
    return any(all(any(number_of(t) == x for t in g) for g in number_groups) for x in range(2, 9))


def row_mixed_with_x(i: Interpretation, w: Win) -> int:
    return with_x(i) and bool(w.honours_held)


def row_pure_with_x(i: Interpretation, w: Win) -> int:
    return with_x(i) and not w.honours_held


def number_pongs(i: Interpretation) -> set:
    """(suit, number) of each pong or gong of number tiles."""
    return {(suit_of(t), number_of(t)) for t in i.pongs if is_number(t)}


def row_linear_pongs(i: Interpretation, w: Win) -> int:
    pongs = number_pongs(i)
    return sum(1 for suit in range(3) if (suit, 1) in pongs and (suit, 9) in pongs)


def eyes_number(i: Interpretation):
    """(suit, number) of the eyes, or None (honour eyes, or none)."""
    return (suit_of(i.eyes), number_of(i.eyes)) if i.eyes is not None and is_number(i.eyes) else None


def brothers(i: Interpretation) -> tuple[int, int, int]:
    """Numbers with pongs in three suits; in two with the eyes of that number in the third; in two otherwise."""
    pongs, eyes = number_pongs(i), eyes_number(i)
    three = small = two = 0
    for n in range(1, 10):
        suits = {s for s in range(3) if (s, n) in pongs}
        if len(suits) == 3:
            three += 1
        elif len(suits) == 2:
            if eyes is not None and eyes[1] == n and eyes[0] not in suits:
                small += 1
            else:
                two += 1
    return three, small, two


def row_big_triple_brothers(i: Interpretation, w: Win) -> int:
    return brothers(i)[0] > 0


def row_small_triple_brothers(i: Interpretation, w: Win) -> int:
    return brothers(i)[1] > 0


def row_double_brothers(i: Interpretation, w: Win) -> int:
    return brothers(i)[2]


def has_sisters(numbers: set) -> bool:
    return any({n, n + 1, n + 2} <= numbers for n in range(1, 8))


def row_big_triple_sisters(i: Interpretation, w: Win) -> int:
    pongs = number_pongs(i)
    return any(has_sisters({n for s, n in pongs if s == suit}) for suit in range(3))


def row_small_triple_sisters(i: Interpretation, w: Win) -> int:
    eyes = eyes_number(i)
    if eyes is None:
        return False
    suit, e = eyes
    numbers = {n for s, n in number_pongs(i) if s == suit}
    if has_sisters(numbers):
        return False
    return any({n, n + 1, n + 2} - {e} <= numbers and n <= e <= n + 2 for n in range(1, 8))


def straights(runs: list) -> list[tuple]:
    """The suits (a, b, c) of each way to take 123, 456 and 789 from ``runs``."""
    def suits(numbers):
        return {run.suit for run in runs if run.numbers == numbers}
    return [(a, b, c) for a in suits((1, 2, 3)) for b in suits((4, 5, 6)) for c in suits((7, 8, 9))]


def row_mixed_straight(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and any(len(set(x)) > 1 for x in straights(i.runs))


def row_mixed_straight_concealed(i: Interpretation, w: Win) -> int:
    return i.shape == "standard" and any(len(set(x)) > 1 for x in straights(concealed_runs(i)))


def more_than_one_wait(w: Win) -> bool:
    return len(_wait_kinds(w.concealed16, w.declared, w.shapes)) > 1


def row_false_solo(i: Interpretation, w: Win) -> int:
    # standard: the eyes are the winning tile's; Nico Nico: the winning tile's kind is held as pairs (2 or 4)
    completes_pair = (i.shape == "standard" and i.eyes == w.win) or (
        i.shape == "nico_nico" and w.all_counts[w.win] in (2, 4))
    return completes_pair and more_than_one_wait(w)


def row_true_solo(i: Interpretation, w: Win) -> int:
    """b-1: one wait, and a group of the reading that holds the winning tile is not an open sheung end."""
    if not row_single_wait(i, w):
        return False
    if i.shape == "nico_nico":
        return True
    if i.shape != "standard":
        return False
    if i.eyes == w.win or w.win in [t for t in i.pongs if t not in exposed_pong_tiles(w)]:
        return True
    if not is_number(w.win):
        return False
    n = number_of(w.win)
    for run in concealed_runs(i):
        if run.suit != suit_of(w.win) or n not in run.numbers:
            continue
        # the middle of the sheung, or its closed edge: the 3 of 1-2-3, the 7 of 7-8-9
        if n == run.numbers[1] or (n == 3 and run.numbers[0] == 1) or (n == 7 and run.numbers[0] == 7):
            return True
    return False


def row_pung_wait(i: Interpretation, w: Win) -> int:
    concealed = [t for t in i.pongs if t not in exposed_pong_tiles(w)]
    return i.shape == "standard" and w.win in concealed and more_than_one_wait(w)


def row_super_eight_pairs(i: Interpretation, w: Win) -> int:
    return i.shape == "nico_nico" and all(c % 2 == 0 for c in w.concealed16) and w.win in i.pongs


def row_human_win(i: Interpretation, w: Win) -> int:
    return "human" in w.events


def row_after_flower(i: Interpretation, w: Win) -> int:
    return w.self_drawn and "after_flower" in w.events


def row_double_win(i: Interpretation, w: Win) -> int:
    return not w.self_drawn and "double_win" in w.events


def row_triple_win(i: Interpretation, w: Win) -> int:
    return not w.self_drawn and "triple_win" in w.events


def row_great_chicken(i: Interpretation, w: Win) -> int:
    return "great_chicken" in w.events


def sheung_counts(i: Interpretation) -> dict:
    """(suit, lowest number) -> how many sheungs of a standard interpretation, declared ones included."""
    counts = {}
    if i.shape == "standard":
        for run in i.runs:
            counts[(run.suit, run.lowest)] = counts.get((run.suit, run.lowest), 0) + 1
    return counts


def at_start(i: Interpretation, n: int) -> list[int]:
    """The sheungs starting at number ``n`` in each suit."""
    counts = sheung_counts(i)
    return [counts.get((suit, n), 0) for suit in range(3)]


def row_pure_double_chow(i: Interpretation, w: Win) -> int:
    return sum(sum(1 for c in at_start(i, n) if c == 2) for n in range(1, 8) if sum(at_start(i, n)) <= 3)


def row_pure_triple_chow(i: Interpretation, w: Win) -> int:
    return any(3 in at_start(i, n) and sum(at_start(i, n)) == 3 for n in range(1, 8))


def row_pure_quadruple_chow(i: Interpretation, w: Win) -> int:
    return any(4 in at_start(i, n) for n in range(1, 8))


def row_double_mixed_chow(i: Interpretation, w: Win) -> int:
    return sum(1 for n in range(1, 8)
               if sum(1 for c in at_start(i, n) if c) == 2 and 2 <= sum(at_start(i, n)) <= 3)


def row_quadruple_mixed_chow(i: Interpretation, w: Win) -> int:
    return max((sum(at_start(i, n)) for n in range(1, 8)), default=0) == 4


def row_quintuple_mixed_chow(i: Interpretation, w: Win) -> int:
    return max((sum(at_start(i, n)) for n in range(1, 8)), default=0) == 5


def row_linear_chows(i: Interpretation, w: Win) -> int:
    counts = sheung_counts(i)
    return sum(min(counts.get((suit, 1), 0), counts.get((suit, 7), 0)) for suit in range(3))

PREDICATES = {
    "self_draw": row_self_draw,
    "concealed_hand": row_concealed_hand,
    "concealed_self_draw": row_concealed_self_draw,
    "single_wait": row_single_wait,
    "closing": row_closing,
    "no_flowers": row_no_flowers,
    "seat_flower": row_seat_flower,
    "flower_set": row_flower_set,
    "all_five_suits": row_all_five_suits,
    "no_honours": row_no_honours,
    "no_flower_no_honour": row_no_flower_no_honour,
    "all_sheung_nfnh": row_all_sheung_nfnh,
    "semi_pure": row_semi_pure,
    "pure": row_pure,
    "jade": row_jade,
    "ruby": row_ruby,
    "sapphire": row_sapphire,
    "diamond": row_diamond,
    "all_honours": row_all_honours,
    "wind_pong": row_wind_pong,
    "dragon_pong": row_dragon_pong,
    "little_three_winds": row_little_three_winds,
    "big_three_winds": row_big_three_winds,
    "little_four_winds": row_little_four_winds,
    "big_four_winds": row_big_four_winds,
    "little_three_dragons": row_little_three_dragons,
    "big_three_dragons": row_big_three_dragons,
    "all_pongs": row_all_pongs,
    "sister_sheungs": row_sister_sheungs,
    "step_up_mixed": row_step_up_mixed,
    "step_up_pure": row_step_up_pure,
    "all_step_up_mixed": row_all_step_up_mixed,
    "all_step_up_pure": row_all_step_up_pure,
    "pure_dragon_concealed": row_pure_dragon_concealed,
    "pure_dragon": row_pure_dragon,
    "mixed_dragon_concealed": row_mixed_dragon_concealed,
    "mixed_dragon": row_mixed_dragon,
    "good_eyes": row_good_eyes,
    "nico_nico": row_nico_nico,
    "nico_quad_pairs": row_nico_quad_pairs,
    "thirteen_orphans": row_thirteen_orphans,
    "sixteen_orphans": row_sixteen_orphans,
    "three_concealed_pongs": row_three_concealed_pongs,
    "four_concealed_pongs": row_four_concealed_pongs,
    "five_concealed_pongs": row_five_concealed_pongs,
    "round_wind_pong": row_round_wind_pong,
    "seat_wind_pong": row_seat_wind_pong,
    "ping_hu": row_ping_hu,
    "all_exposed": row_all_exposed,
    "eight_flowers": row_eight_flowers,
    "dealer": row_dealer,
    "dealer_streak": row_dealer_streak,
    "last_tile_draw": row_last_tile_draw,
    "last_tile_discard": row_last_tile_discard,
    "after_gong": row_after_gong,
    "robbing_gong": row_robbing_gong,
    "heavenly_win": row_heavenly_win,
    "earthly_win": row_earthly_win,
    "heavenly_ready": row_heavenly_ready,
    "earthly_ready": row_earthly_ready,
    "missing_one_suit": row_missing_one_suit,
    "all_sheungs": row_all_sheungs,
    "two_concealed_pongs": row_two_concealed_pongs,
    "non_seat_wind_pong": row_non_seat_wind_pong,
    "concealed_gong": row_concealed_gong,
    "seven_tile_hand": row_seven_tile_hand,
    "ten_tile_hand": row_ten_tile_hand,
    "semi_beggar": row_semi_beggar,
    "all_concealed_pongs": row_all_concealed_pongs,
    "mixed_flower": row_mixed_flower,
    "seat_flower_outside_set": row_seat_flower_outside_set,
    "all_simples": row_all_simples,
    "mixed_terminals": row_mixed_terminals,
    "pure_terminals": row_pure_terminals,
    "mixed_outside": row_mixed_outside,
    "pure_outside": row_pure_outside,
    "mixed_with_x": row_mixed_with_x,
    "pure_with_x": row_pure_with_x,
    "linear_pongs": row_linear_pongs,
    "double_brothers": row_double_brothers,
    "small_triple_brothers": row_small_triple_brothers,
    "big_triple_brothers": row_big_triple_brothers,
    "small_triple_sisters": row_small_triple_sisters,
    "big_triple_sisters": row_big_triple_sisters,
    "mixed_straight": row_mixed_straight,
    "mixed_straight_concealed": row_mixed_straight_concealed,
    "false_solo": row_false_solo,
    "pung_wait": row_pung_wait,
    "super_eight_pairs": row_super_eight_pairs,
    "human_win": row_human_win,
    "pure_double_chow": row_pure_double_chow,
    "pure_triple_chow": row_pure_triple_chow,
    "pure_quadruple_chow": row_pure_quadruple_chow,
    "double_mixed_chow": row_double_mixed_chow,
    "quadruple_mixed_chow": row_quadruple_mixed_chow,
    "quintuple_mixed_chow": row_quintuple_mixed_chow,
    "linear_chows": row_linear_chows,
    "true_solo": row_true_solo,
    "after_flower": row_after_flower,
    "double_win": row_double_win,
    "triple_win": row_triple_win,
    "great_chicken": row_great_chicken,
}

# Added after the Chicken (section 4.7, 6); not part of `points`.
DEALER_AND_BASE = ("mahjong_base", "east_wins", "streak_bonus")


# ---------------------------------------------------------------------------
# Scoring one interpretation (sections 4-6)
# ---------------------------------------------------------------------------


def row_value(row: dict, units: int) -> int:
    """Points of a row scoring ``units`` units (nico_quad_pairs: a list by count)."""
    points = row["points"]
    if isinstance(points, list):
        return points[min(units, len(points)) - 1]
    return points * units


def scoring_rows(i: Interpretation, w: Win, rules: dict) -> dict:
    """``{row id: points}`` of the rows that score for this interpretation, table order."""
    table = rules["rows"]
    fired = {}  # row id -> units, for rows whose predicate holds in this shape
    for row_id in rules["order"]:
        if row_id in DEALER_AND_BASE:
            continue
        if row_id not in PREDICATES:
            raise KeyError(f"rule table row {row_id!r} has no predicate in the reference")
        if i.shape not in table[row_id].get("shapes", SHAPES):
            continue
        units = int(PREDICATES[row_id](i, w))
        if units > 0:
            fired[row_id] = units

    # A fired row scores unless a *scoring* row replaces it (not transitive).
    memo = {}

    def scores(row_id: str, seen=()) -> bool:
        if row_id not in memo:
            if row_id in seen:
                raise ValueError(f"replacement cycle through {row_id!r}")
            memo[row_id] = not any(
                row_id in table[other].get("replaces", ()) and scores(other, seen + (row_id,))
                for other in fired
                if other != row_id
            )
        return memo[row_id]

    result = {}  # a scoring row worth 0 stays: it may still replace the base (total_up)
    for row_id, units in fired.items():
        if scores(row_id):
            result[row_id] = row_value(table[row_id], units)
    return result


def total_up(rows: dict, w: Win, rules: dict) -> dict:
    """Section 6: points, Chicken, total, legality, payout; the dealer rows added.  A table without the
    LRC base and dealer rows (the taiwan profile) adds none; one without the Chicken rule has no Chicken."""
    table = rules["rows"]
    minimum = rules["minimum"][w.round]
    points = sum(rows.values())
    chicken = rules["chicken"] and points == rules["chicken_points"]
    base = table["mahjong_base"]["points"] if "mahjong_base" in table else 0
    if any("mahjong_base" in table[row_id].get("replaces", ()) for row_id in rows):
        base = 0  # a scoring row replaces the base (hk-taiwanese great_chicken)
    total = minimum if chicken else points + base
    legal = chicken or total >= minimum
    shown = dict(rows)
    if base:
        shown["mahjong_base"] = base  # every win (9.12)
    dealer = 0
    if w.seat == 0 and "east_wins" in table:  # East, the dealer
        shown["east_wins"] = table["east_wins"]["points"]
        dealer += table["east_wins"]["points"]
    if w.seat == 0 and w.streak > 0 and "streak_bonus" in table:
        shown["streak_bonus"] = table["streak_bonus"]["points"] * w.streak
        dealer += shown["streak_bonus"]
    shown = {row_id: value for row_id, value in shown.items() if value}
    return {
        "rows": shown,
        "points": points,
        "chicken": chicken,
        "total": total,
        "legal": legal,
        "payout": rules["pay_base"] + rules["pay_unit"] * total + dealer if legal else 0,
    }


NOT_A_WIN = {
    "is_win": False,
    "shape": None,
    "rows": {},
    "points": 0,
    "chicken": False,
    "total": 0,
    "legal": False,
    "payout": 0,
}


def score_win(w: Win, rules: dict) -> dict:
    """Score every interpretation and return the best one (section 6)."""
    concealed17 = list(w.concealed16)
    concealed17[w.win] += 1
    scored = []  # (rank, shape, result) of each interpretation
    nico = standard = None  # the double interpretation's two readings: (position in scored, rows), (rank, rows)
    for index, interp in enumerate(all_interpretations(concealed17, w.declared, w.shapes)):
        rows = scoring_rows(interp, w, rules)
        result = total_up(rows, w, rules)
        rank = (-result["payout"], -result["points"], index)
        scored.append((rank, interp.shape, result))
        if interp.shape == "nico_nico":
            nico = (len(scored) - 1, rows)
        if interp.shape == "standard" and (standard is None or rank < standard[0]):
            standard = (rank, rows)
    if not scored:
        return dict(NOT_A_WIN, rows={})
    if rules["double"] and nico and standard:
        # 雙食: the Nico Nico reading takes the best standard reading's rows too; a row of the whole hand
        # (counted_once) that both score counts once.  It then competes with the others as before (it ties
        # with the standard reading when all its rows count once, as with a declared great_chicken).
        rows = dict(nico[1])
        for row_id, value in standard[1].items():
            if not (row_id in rows and row_id in rules["counted_once"]):
                rows[row_id] = rows.get(row_id, 0) + value
        result = total_up(rows, w, rules)
        position = nico[0]
        scored[position] = ((-result["payout"], -result["points"], scored[position][0][2]), "nico_nico", result)
    _, shape, result = min(scored, key=lambda item: item[0])
    return {"is_win": True, "shape": shape, **result}


# ---------------------------------------------------------------------------
# Public interface
# ---------------------------------------------------------------------------


def _wind(value, what: str) -> int:
    if isinstance(value, str) and len(value) == 1 and value in WINDS:
        return WINDS.index(value)
    raise ValueError(f"{what} must be one of E S W N, got {value!r}")


def _situation(hand, win, self_drawn, seat, round, flowers, streak, closing, events=()) -> Win:
    parsed = parse_hand(hand)
    declared = tuple((SetKind(int(kind)), int(tile)) for kind, tile in parsed.declared)
    concealed16 = tuple(int(c) for c in parsed.concealed)
    flower_numbers = tuple(parse_flowers(flowers or ""))
    if int(streak) < 0:
        raise ValueError(f"streak must be 0 or more, got {streak!r}")
    if closing and any(is_exposed(kind) for kind, _ in declared):
        raise ValueError("Closing with an exposed set is invalid (RULES.md 4.1, 9.14)")
    return Win(
        concealed16=concealed16,
        declared=declared,
        win=win,
        self_drawn=bool(self_drawn),
        seat=_wind(seat, "seat"),
        round=_wind(round, "round"),
        flowers=flower_numbers,
        streak=int(streak),
        closing=bool(closing),
        events=frozenset(events.split() if isinstance(events, str) else events or ()),
    )


def score(
    hand: str,
    win: str,
    *,
    self_drawn=False,
    seat="E",
    round="E",
    flowers="",
    streak=0,
    closing=False,
    events=(),
    rules_path=None,
) -> dict:
    """Score a hand; the result has the keys of the conformance files' ``result``.

    ``{"is_win", "shape", "rows", "points", "chicken", "total", "legal", "payout"}``
    """
    rules = load_rules(None if rules_path is None else str(rules_path))
    w = replace(_situation(hand, parse_tile(win), self_drawn, seat, round, flowers, streak, closing, events),
                shapes=rules["win_shapes"])
    if sum(w.concealed16) + 1 + 3 * len(w.declared) != 17:
        raise ValueError(f"{hand!r} does not hold 16 tiles before the win")
    if w.all_counts[w.win] > 4:
        raise ValueError(f"a fifth copy of {TILE_NAMES[w.win]} with the winning tile")
    return score_win(w, rules)


def waits(
    hand: str,
    *,
    seat="E",
    round="E",
    flowers="",
    streak=0,
    closing=False,
    events=(),
    rules_path=None,
) -> dict:
    """``{tile name: {"discard": payout, "self_draw": payout}}`` for every wait (section 7).

    Brute force: each of the 34 kinds as the winning tile, kinds already held
    four times skipped, kept when the 17 tiles make a shape that wins under the table.
    """
    rules = load_rules(None if rules_path is None else str(rules_path))
    w = replace(_situation(hand, 0, False, seat, round, flowers, streak, closing, events), shapes=rules["win_shapes"])
    held = held_counts(list(w.concealed16), w.declared)
    result = {}
    for k in range(N_KINDS):
        if held[k] >= 4:
            continue
        on_discard = score_win(replace(w, win=k, self_drawn=False), rules)
        if not on_discard["is_win"]:
            continue
        on_draw = score_win(replace(w, win=k, self_drawn=True), rules)
        result[TILE_NAMES[k]] = {"discard": on_discard["payout"], "self_draw": on_draw["payout"]}
    return result


def row_error(concealed, declared, win: int, seat: int, round_wind: int, streak: int, closing: bool,
              require_win: bool) -> int:
    """The first row check a hand fails (RULES.md section 2), as an ErrorCode value (0: valid), plainly.

    ``concealed`` 34 counts, ``declared`` (kind, tile) pairs (kind 0 pads). Checks in order: declared
    kinds 0-4 and tiles 0-33 (BAD_SET 2), winning tile -1..33 (BAD_WIN 5), seat/round 0-3 and streak
    0-1000 (BAD_CONTEXT 6), declared sheungs start on 1-7 of a number suit (BAD_SET 2), 16 tiles with a
    declared set counting 3 (TILE_COUNT 3), at most 4 copies of a kind with the sets and the winning
    tile (FIFTH_COPY 4), Closing only without an exposed set (BAD_CONTEXT 6), a winning tile when
    required (BAD_WIN 5).
    """
    sets = [(int(k), int(t)) for k, t in declared]
    if any(not (0 <= k <= 4) or not (0 <= t <= 33) for k, t in sets):
        return 2
    if not -1 <= int(win) <= 33:
        return 5
    if not (0 <= int(seat) <= 3 and 0 <= int(round_wind) <= 3 and 0 <= int(streak) <= 1000):
        return 6
    if any(k == 1 and not (t < 27 and t % 9 <= 6) for k, t in sets):
        return 2
    if sum(int(c) for c in concealed) + 3 * sum(1 for k, _ in sets if k) != 16:
        return 3
    held = list(held_counts(tuple(int(c) for c in concealed), tuple((k, t) for k, t in sets if k)))
    if int(win) >= 0:
        held[int(win)] += 1
    if max(held) > 4:
        return 4
    if closing and any(is_exposed(k) for k, _ in sets if k):
        return 6
    if require_win and int(win) < 0:
        return 5
    return 0
