"""A plain, slow oracle for shanten and useful draws (RULES.md sections 3 and 7), for the tests only.

Two independent definitions, neither sharing code with :mod:`fastscore.kernels.shanten`:

- :func:`standard_distance`: the fewest tiles to draw to a complete 17-tile
  standard hand, by listing every target of ``5 - declared`` concealed sets
  plus eyes (at most 4 copies of a kind with the declared sets) and counting
  the tiles it lacks.  Practical for up to two concealed sets.
- :func:`exchange_neighbours`: every hand one exchange away (one concealed
  tile out, one tile in that still has a free copy), for the defining
  recursion: shanten 0 exactly when :func:`tests.reference.wait_kinds` is
  non-empty, and shanten k > 0 exactly when the least shanten over the
  neighbours is k - 1.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from reference import has_any_shape, held_counts, wait_kinds

N_KINDS = 34
SETS = [("pong", t) for t in range(N_KINDS)] + [("sheung", t) for t in range(27) if t % 9 <= 6]


def set_tiles(kind: str, tile: int) -> list[int]:
    return [tile] * 3 if kind == "pong" else [tile, tile + 1, tile + 2]


def declared_copies(declared) -> list[int]:
    """Copies of each kind in the declared sets."""
    return held_counts([0] * N_KINDS, declared)


def standard_distance(concealed: list[int], declared) -> int:
    """Fewest tiles to draw so that the concealed tiles hold ``5 - len(declared)`` sets and eyes with every
    kind at most 4 with the declared sets; by listing every such target."""
    n_sets = 5 - len(declared)
    caps = [4 - c for c in declared_copies(declared)]
    best = 99
    for sets in combinations_with_replacement(SETS, n_sets):
        target = [0] * N_KINDS
        for kind, tile in sets:
            for t in set_tiles(kind, tile):
                target[t] += 1
        if any(target[t] > caps[t] for t in range(N_KINDS)):
            continue
        base = sum(max(0, target[t] - concealed[t]) for t in range(N_KINDS))
        for eyes in range(N_KINDS):
            if target[eyes] + 2 <= caps[eyes]:
                best = min(best, base + max(0, target[eyes] + 2 - concealed[eyes]) - max(0, target[eyes] - concealed[eyes]))
    return best


def exchange_neighbours(concealed: list[int], declared):
    """Every distinct hand one exchange away from ``concealed`` (counts): a concealed tile out, then any
    tile with a copy still free (fewer than 4 held with the declared sets) in."""
    seen = set()
    held = held_counts(concealed, declared)
    for out in range(N_KINDS):
        if concealed[out] == 0:
            continue
        for inn in range(N_KINDS):
            if inn == out or held[inn] >= 4:
                continue
            hand = list(concealed)
            hand[out] -= 1
            hand[inn] += 1
            key = tuple(hand)
            if key not in seen:
                seen.add(key)
                yield hand


def is_ready(concealed16: list[int], declared) -> bool:
    """The 16 tiles have a wait (section 7), by the reference's waits."""
    return bool(wait_kinds(concealed16, declared))


def is_complete(concealed17: list[int], declared) -> bool:
    """The 17 tiles win in some shape (section 3), by the reference."""
    return has_any_shape(list(concealed17), tuple(declared))


def useful_draws(concealed16: list[int], declared, shanten_of) -> set[int]:
    """Kinds whose draw lowers the shanten of a 16-tile hand: the 17 tiles after the draw have a discard
    to a lower shanten (or are complete); ``shanten_of(counts)`` gives a 16-tile hand's shanten."""
    before = shanten_of(concealed16)
    held = held_counts(concealed16, declared)
    found = set()
    for t in range(N_KINDS):
        if held[t] >= 4:
            continue
        hand = list(concealed16)
        hand[t] += 1
        if is_complete(hand, declared):
            found.add(t)
            continue
        for out in range(N_KINDS):
            if hand[out] == 0:
                continue
            hand[out] -= 1
            lower = shanten_of(hand) < before
            hand[out] += 1
            if lower:
                found.add(t)
                break
    return found
