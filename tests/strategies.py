"""Hypothesis strategies for hands, stratified by family (STYLE.md: random, flushes, honours, pairs, orphans).

Each strategy draws a hand as the notation a player writes, so that the fast
paths and the reference scorer see exactly the same input.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from hypothesis import assume
from hypothesis import strategies as st

from fastscore.tiles import TILE_NAMES, SetKind, format_counts, format_set

NUMBER_TILES = list(range(27))
HONOUR_TILES = list(range(27, 34))
ORPHANS = [0, 8, 9, 17, 18, 26, *HONOUR_TILES]
ORPHAN_SHEUNGS = [(a, b, c) for a in range(9) for b in range(a + 3, 9) for c in range(b + 3, 9)]
FAMILIES = ("mixed", "half_flush", "full_flush", "honours", "sheungs", "nico_nico", "thirteen_orphans", "sixteen_orphans")


def _allowed_tiles(family: str, suit: int) -> list[int]:
    suit_tiles = list(range(9 * suit, 9 * suit + 9))
    if family == "full_flush":
        return suit_tiles
    if family == "half_flush":
        return suit_tiles + HONOUR_TILES
    if family == "honours":
        return HONOUR_TILES + suit_tiles[:3]
    return NUMBER_TILES + HONOUR_TILES


@st.composite
def standard_groups(draw, family: str):
    """Five sets and eyes as tile lists, plus which sets are declared and how."""
    suit = draw(st.integers(0, 2))
    allowed = _allowed_tiles(family, suit)
    sheung_starts = [t for t in allowed if t < 27 and t % 9 <= 6 and t + 2 in allowed]
    sets = []
    for _ in range(5):
        if family == "sheungs" or (sheung_starts and draw(st.booleans()) and family != "honours"):
            start = draw(st.sampled_from(sheung_starts or [9 * suit]))
            sets.append((SetKind.SHEUNG, start))
        else:
            sets.append((SetKind.PONG, draw(st.sampled_from(allowed))))
    eyes = draw(st.sampled_from(allowed))
    n_declared = draw(st.integers(0, 4))
    declared = []
    for kind, tile in sets[:n_declared]:
        if kind == SetKind.PONG:
            kind = draw(st.sampled_from([SetKind.PONG, SetKind.GONG, SetKind.CONCEALED_GONG]))
        declared.append((kind, tile))
    concealed = [eyes, eyes]
    for kind, tile in sets[n_declared:]:
        concealed += [tile, tile + 1, tile + 2] if kind == SetKind.SHEUNG else [tile] * 3
    return concealed, declared


@st.composite
def special_concealed(draw, family: str):
    """17 concealed tiles of a special shape (section 3)."""
    if family == "nico_nico":
        kinds = draw(st.lists(st.sampled_from(range(34)), min_size=8, max_size=8))
        return [t for t in kinds[:7] for _ in range(2)] + [kinds[7]] * 3
    if family == "thirteen_orphans":
        extra = draw(st.one_of(
            st.sampled_from(range(34)).map(lambda t: [t] * 3),
            st.sampled_from([t for t in NUMBER_TILES if t % 9 <= 6]).map(lambda t: [t, t + 1, t + 2]),
        ))
        return ORPHANS + [draw(st.sampled_from(ORPHANS))] + extra
    tiles = list(HONOUR_TILES)
    for suit in range(3):
        tiles += [9 * suit + n for n in draw(st.sampled_from(ORPHAN_SHEUNGS))]
    return tiles + [draw(st.sampled_from(tiles))]


@st.composite
def context(draw, concealed_hand: bool):
    flowers = draw(st.lists(st.integers(1, 8), unique=True, max_size=8).map(sorted))
    ctx = dict(
        self_drawn=draw(st.booleans()),
        seat=draw(st.sampled_from("ESWN")),
        round=draw(st.sampled_from("ESWN")),
        flowers="".join(f"{n}f" for n in flowers) if draw(st.booleans()) else "",
        streak=draw(st.sampled_from([0, 0, 1, 3])),
        closing=concealed_hand and draw(st.booleans()),
    )
    if draw(st.booleans()):
        ctx["events"] = " ".join(draw(st.lists(st.sampled_from(possible_events(ctx)), unique=True, max_size=3)))
    return ctx


def possible_events(ctx: dict) -> list[str]:
    """The timing events a win with this context can have (docs/rules.md, Events), for the strategies:
    a gong's or a flower's replacement tile is self-drawn, a robbed gong's tile and one that others also
    win on a discard (two or three winners, not both), only East wins heavenly,
    and ready is declared (with Closing) once; any win may be declared a Great Chicken.  Heavenly, earthly
    and human together are left out by choice of one of them."""
    events = ["last_tile"]
    events += ["after_gong", "after_flower"] if ctx["self_drawn"] else ["robbing_gong", ["double_win", "triple_win"][
        ctx["streak"] % 2]]
    events += ["heavenly"] if ctx["self_drawn"] and ctx["seat"] == "E" else [["earthly", "human"][ctx["streak"] % 2]]
    events += ["ready_first", "ready_early"][ctx["streak"] % 2:][:1] if ctx["closing"] else []
    # The declared Great Chicken replaces most rows of the tables that have it: offered to a few contexts.
    events += ["great_chicken"] if ctx["streak"] % 3 == 1 else []
    return events


def _hand_text(concealed: list[int], declared) -> str:
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    return " ".join([format_counts(counts)] + [format_set(k, t) for k, t in declared])


@st.composite
def winning_hands(draw, families=FAMILIES):
    """``(hand, win, context)`` of a winning 17-tile hand, valid input."""
    family = draw(st.sampled_from(families))
    if family in ("nico_nico", "thirteen_orphans", "sixteen_orphans"):
        concealed17, declared = draw(special_concealed(family)), []
    else:
        concealed17, declared = draw(standard_groups(family))
    held = Counter(concealed17)
    for kind, tile in declared:
        if kind == SetKind.SHEUNG:
            held.update([tile, tile + 1, tile + 2])
        else:
            held[tile] += 4 if kind in (SetKind.GONG, SetKind.CONCEALED_GONG) else 3
    assume(max(held.values()) <= 4)
    win = draw(st.sampled_from(sorted(set(concealed17))))
    concealed17.remove(win)
    exposed = any(k != SetKind.CONCEALED_GONG for k, _ in declared)
    return _hand_text(concealed17, declared), TILE_NAMES[win], draw(context(not exposed))


@st.composite
def ready_hands(draw, families=FAMILIES):
    """``(hand, context)`` of a 16-tile hand one tile from a win (the removed tile is a wait)."""
    hand, win, ctx = draw(winning_hands(families))
    del ctx["self_drawn"]
    return hand, ctx


@st.composite
def random_hands(draw):
    """``(hand, win, context)`` of 17 random concealed tiles: mostly not winning."""
    tiles = draw(st.lists(st.integers(0, 33), min_size=17, max_size=17))
    assume(max(Counter(tiles).values()) <= 4)
    return _hand_text(tiles[1:], []), TILE_NAMES[tiles[0]], draw(context(True))


def counts(text: str) -> np.ndarray:
    """``(34,) int64`` counts of Tenhou notation such as ``'123m55z'`` (any number of tiles)."""
    out = np.zeros(34, dtype=np.int64)
    digits: list[int] = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
            continue
        for d in digits:
            out[{"m": 0, "p": 9, "s": 18, "z": 27}[ch] + d - 1] += 1
        digits = []
    return out
