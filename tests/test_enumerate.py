"""Exhaustive enumeration of complete concealed standard hands (fastscore/enumerate.py).

Restricted spaces are compared with a plain recursive generator (every
multiset of five sets plus eyes, at most 4 of a kind); the full space is
counted (118,856,487, PERF.md) in a slow test and by its combination tables
in a fast one.
"""

from __future__ import annotations

import functools
from math import comb

import numpy as np
import pytest

from fastscore.enumerate import FULL_SPACE_SIZE, HAND_TILES, enumerate_hands, space, space_size
from fastscore.tables import POW5
from strategies import counts
from threads import outputs_by_thread_count

#: Sum of prod C(4, count) over the full space: complete 17-tile draws from the 136 tiles.
FULL_MULTIPLICITY = 1_554_490_175_889_888
SUIT_BASE = {"m": 0, "p": 9, "s": 18}


#: Base-5 weights of the 27 number kinds (a code fits int64: 5**27 < 2**63) and of the 7 honours.
NUMBER_WEIGHTS = np.array([5**i for i in range(27)], dtype=np.int64)
HONOUR_WEIGHTS = np.array([5**i for i in range(7)], dtype=np.int64)


def keys(hands: np.ndarray) -> np.ndarray:
    """``(N, 2) int64``: (number-tile code, honour code) of each hand, a one-to-one key."""
    hands = np.asarray(hands, dtype=np.int64)
    return np.stack([hands[:, :27] @ NUMBER_WEIGHTS, hands[:, 27:] @ HONOUR_WEIGHTS], axis=1)


def sorted_keys(k: np.ndarray) -> np.ndarray:
    return k[np.lexsort((k[:, 1], k[:, 0]))]


@functools.lru_cache(maxsize=None)
def brute_force(suits: str, honours: bool) -> np.ndarray:
    """Keys (see :func:`keys`) of every complete hand of the space, sorted, from a plain recursive
    generator of five sets (non-decreasing group index, so each multiset once) and eyes."""
    kinds = [SUIT_BASE[s] + i for s in suits for i in range(9)] + (list(range(27, 34)) if honours else [])
    groups = [(k, k, k) for k in kinds]
    groups += [(SUIT_BASE[s] + i, SUIT_BASE[s] + i + 1, SUIT_BASE[s] + i + 2) for s in suits for i in range(7)]

    delta = [sum(5**t for t in tiles) for tiles in groups]  # base-5 code over all 34 kinds (a Python int)
    found: set[int] = set()
    hand = [0] * 34

    def add_sets(first: int, left: int, code: int) -> None:
        if left == 0:
            found.update(code + 2 * 5**eyes for eyes in kinds if hand[eyes] <= 2)
            return
        for g in range(first, len(groups)):
            tiles = groups[g]
            if all(hand[t] < 4 for t in tiles) and (tiles[0] != tiles[1] or hand[tiles[0]] <= 1):
                for t in tiles:
                    hand[t] += 1
                add_sets(g, left - 1, code + delta[g])
                for t in tiles:
                    hand[t] -= 1

    add_sets(0, 5, 0)
    split = [divmod(code, 5**27) for code in found]  # (honour code, number code)
    return sorted_keys(np.array([(n, z) for z, n in split], dtype=np.int64).reshape(-1, 2))


def fixed_subset(brute: np.ndarray, fixed: np.ndarray) -> np.ndarray:
    """The brute-force keys of hands holding at least ``fixed`` (decoded digit by digit)."""
    digits = np.concatenate([(brute[:, :1] // NUMBER_WEIGHTS) % 5, (brute[:, 1:] // HONOUR_WEIGHTS) % 5], axis=1)
    return brute[(digits >= fixed).all(axis=1)]


def collect(**options) -> tuple[np.ndarray, np.ndarray]:
    chunks = list(enumerate_hands(**options))
    if not chunks:
        return np.zeros((0, 34), dtype=np.uint8), np.zeros(0, dtype=np.int64)
    return np.concatenate([h for h, _ in chunks]), np.concatenate([m for _, m in chunks])


def multiplicity(hands: np.ndarray) -> np.ndarray:
    copies = np.array([comb(4, c) for c in range(5)], dtype=np.int64)
    return copies[hands].prod(axis=1)


# --------------------------------------------------------------------------- restricted spaces, brute force


@pytest.mark.parametrize(("suits", "honours"), [("s", False), ("m", False), ("", True), ("s", True)],
                         ids=["bamboo", "characters", "honours", "bamboo+honours"])
def test_restricted_space_equals_brute_force(suits, honours):
    hands, mult = collect(suits=suits, honours=honours, chunk_rows=50_000)
    found = sorted_keys(keys(hands))
    assert (np.diff(found, axis=0) != 0).any(axis=1).all(), "a hand was yielded twice"
    np.testing.assert_array_equal(found, brute_force(suits, honours))
    assert len(hands) == space_size(suits=suits, honours=honours)
    assert hands.dtype == np.uint8 and mult.dtype == np.int64 and hands.shape[1] == 34
    assert (hands.sum(axis=1) == HAND_TILES).all() and hands.max() <= 4
    np.testing.assert_array_equal(mult, multiplicity(hands))


def test_known_sizes():
    assert space_size(suits="s", honours=False) == 26_414
    assert space_size(suits="", honours=True) == 42  # five of the seven honours as pongs, one more as eyes
    assert space_size(suits="s", honours=True) == 460_715
    assert space_size(suits="", honours=False) == 0
    assert list(enumerate_hands(suits="", honours=False)) == []


def test_fixed_restricts_to_supersets():
    fixed = counts("22s555s")
    hands, mult = collect(suits="s", honours=True, fixed=fixed, chunk_rows=1000)
    np.testing.assert_array_equal(sorted_keys(keys(hands)), fixed_subset(brute_force("s", True), fixed))
    np.testing.assert_array_equal(mult, multiplicity(hands))
    # A fixed tile of a suit that is not allowed, or one honour tile held 4 times: nothing.
    assert space_size(suits="s", honours=False, fixed=counts("1m")) == 0
    assert space_size(suits="", honours=True, fixed=counts("1111z")) == 0


# --------------------------------------------------------------------------- the full space


def test_full_space_size_and_multiplicity_from_tables():
    full = space()
    assert len(full) == FULL_SPACE_SIZE == 118_856_487
    assert full.total_multiplicity == FULL_MULTIPLICITY
    # Each number suit alone at 17 tiles has 26,414 complete shapes (the per-suit tables' count).
    assert space_size(suits="p", honours=False) == 26_414


@pytest.mark.slow
def test_full_space_enumerated():
    """Walk every chunk of the full space: 118,856,487 valid hands (about 15 s)."""
    n = 0
    total = 0
    previous_last = None
    for hands, mult in enumerate_hands(chunk_rows=1 << 21):
        assert (hands.sum(axis=1, dtype=np.int64) == HAND_TILES).all() and hands.max() <= 4
        n += len(hands)
        total += int(mult.sum())
        if previous_last is not None:
            assert not np.array_equal(previous_last, hands[0])
        previous_last = hands[-1].copy()
    assert n == FULL_SPACE_SIZE
    assert total == FULL_MULTIPLICITY


# --------------------------------------------------------------------------- order and determinism


def group_tiles(hands: np.ndarray) -> np.ndarray:
    return np.stack([hands[:, 0:9].sum(1), hands[:, 9:18].sum(1), hands[:, 18:27].sum(1), hands[:, 27:].sum(1)], 1)


def test_documented_order():
    """Combinations by (n_m, n_p, n_s, n_z), then by the groups' base-5 codes, honours fastest."""
    hands, _ = collect(suits="mp", honours=True, fixed=counts("22m345p1z"), chunk_rows=999)
    codes = np.stack([hands[:, b:b + w].astype(np.int64) @ POW5[:w] for b, w in ((0, 9), (9, 9), (18, 9), (27, 7))], 1)
    order_keys = np.concatenate([group_tiles(hands), codes], axis=1)
    assert len(hands) > 1000
    steps = np.diff(order_keys, axis=0)
    first_change = np.argmax(steps != 0, axis=1)  # the first key that differs between neighbours
    assert (steps[np.arange(len(steps)), first_change] > 0).all()


def test_chunk_size_does_not_change_anything():
    options = dict(suits="ps", honours=True, fixed=counts("5p5s7z"))
    one_chunk, mult_one = collect(**options, chunk_rows=1 << 20)
    many, mult_many = collect(**options, chunk_rows=7777)
    sizes = [len(h) for h, _ in enumerate_hands(**options, chunk_rows=7777)]
    assert set(sizes[:-1]) == {7777} and 0 < sizes[-1] <= 7777
    np.testing.assert_array_equal(one_chunk, many)
    np.testing.assert_array_equal(mult_one, mult_many)


def test_ranges_cut_anywhere_join_to_the_whole_space():
    options = dict(suits="ps", honours=True, fixed=counts("5p5s7z"))
    whole, mult_whole = collect(**options)
    cuts = [0, 1, 999, 1000, 4321, len(whole) - 1, len(whole)]
    parts = [collect(**options, start=a, stop=b, chunk_rows=500) for a, b in zip(cuts, cuts[1:])]
    np.testing.assert_array_equal(np.concatenate([p[0] for p in parts]), whole)
    np.testing.assert_array_equal(np.concatenate([p[1] for p in parts]), mult_whole)
    assert list(enumerate_hands(**options, start=5, stop=5)) == []


DIGEST_SCRIPT = """
import hashlib, sys
import numpy as np
from fastscore.enumerate import enumerate_hands
fixed = np.zeros(34, dtype=np.int64)
fixed[[4, 13, 22, 27]] = 1  # 5m 5p 5s E
hands, mult = hashlib.sha256(), hashlib.sha256()
for h, m in enumerate_hands(fixed=fixed, chunk_rows=int(sys.argv[1])):
    hands.update(h.tobytes())
    mult.update(m.tobytes())
print(hands.hexdigest(), mult.hexdigest())
"""


def test_same_hands_whatever_the_thread_count_and_chunk_size():
    # (threads, chunk rows)
    assert len(outputs_by_thread_count(DIGEST_SCRIPT, [(1, 100_003), (2, 4096)])) == 1


# --------------------------------------------------------------------------- bad options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (dict(suits="x"), "subset of 'mps'"),
        (dict(suits="mm"), "subset of 'mps'"),
        (dict(fixed=np.zeros(33, dtype=np.int64)), r"\(34,\)"),
        (dict(fixed=np.full(34, 5)), "out of range"),
        (dict(fixed=np.full(34, 0.5)), "integer"),
        (dict(chunk_rows=0), "chunk_rows"),
        (dict(suits="s", honours=False, start=-1), r"start must be an integer in 0 \.\. 26414"),
        (dict(suits="s", honours=False, stop=26415), r"stop must be an integer in 0 \.\. 26414"),
        (dict(suits="s", honours=False, start=10, stop=9), r"start \(10\) must not be after stop \(9\)"),
    ],
)
def test_bad_options_raise_at_the_call(options, message):
    with pytest.raises(ValueError, match=message):
        enumerate_hands(**options)
