"""Exhaustive enumeration of complete concealed standard hands (LRC rules sections 2 and 3).

The space: every 17-tile count vector (34 kinds, at most 4 of a kind) that
splits into five sets (sheungs and pongs, no declared set) and one pair of
eyes.  There are 118,856,487 such vectors (PERF.md, last self-check row).

How it is built (PERF.md "The design that gets there", 2 to 4).  The suits
are independent: a hand is complete exactly when each suit is complete on
its own, as sets only or as sets plus the eyes, with the eyes in exactly one
suit.  So

1. each number suit's complete shapes are read from
   :func:`fastscore.tables.kernel_tables` (``suit_info & 3``) and grouped by
   tile count (``n % 3 == 0``: sets only; ``n % 3 == 2``: with the eyes);
   the honours need no table: every honour kind is held 0, 2 (the eyes) or 3
   (a pong) times, at most one of them 2;
2. the *combinations* are the tile counts ``(n_m, n_p, n_s, n_z)`` summing
   to 17 with exactly one of them ``2 mod 3``;
3. the hands of one combination are the product of the four shape lists.

The whole space is then a mixed-radix number line, and a chunk ``[start,
start + k)`` of it is decoded row by row in one parallel numba kernel.  Each
row is a pure function of its index, so the order is the same whatever the
thread count and chunk size, and memory stays at one chunk.

Order.  Combinations in lexicographic order of ``(n_m, n_p, n_s, n_z)``;
within one, the characters shape varies slowest and the honours shape
fastest; the shapes of one group are in increasing order of their base-5 code
``sum(count[i] * 5**i)`` (so the empty shape comes first).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from ._jit import jit_parallel, prange
from .tables import COMPLETE_EYES, COMPLETE_SETS, POW5, kernel_tables
from .tiles import N_KINDS

__all__ = ["HAND_TILES", "FULL_SPACE_SIZE", "Space", "enumerate_hands", "space", "space_size"]

#: Tiles of a complete hand without declared sets.
HAND_TILES = 17
#: Complete concealed standard hands over all five suits (PERF.md).
FULL_SPACE_SIZE = 118_856_487
#: ``C(4, c)``: ways to pick ``c`` of the four copies of a kind.
_COPIES = np.array([comb(4, c) for c in range(5)], dtype=np.int64)
#: First tile index of the groups m, p, s, z and their widths.
_GROUP_BASE = (0, 9, 18, 27)
_GROUP_WIDTH = (9, 9, 9, 7)
_SUIT_LETTERS = "mps"
#: Rows decoded per block of the fill kernel (one binary search per block).
_BLOCK = 4096


@lru_cache(maxsize=1)
def _number_shapes() -> tuple[np.ndarray, np.ndarray]:
    """Every complete number-suit shape: ``(counts (K, 9) uint8, tiles (K,) int64)``, by tile count then code."""
    info = kernel_tables()[0]
    codes = np.flatnonzero((info & (COMPLETE_SETS | COMPLETE_EYES)) != 0).astype(np.int64)
    counts = ((codes[:, None] // POW5[None, :]) % 5).astype(np.uint8)
    tiles = counts.sum(axis=1, dtype=np.int64)
    order = np.lexsort((codes, tiles))
    return counts[order], tiles[order]


@lru_cache(maxsize=1)
def _honour_shapes() -> tuple[np.ndarray, np.ndarray]:
    """Every complete honour shape (each kind 0, 2 or 3, at most one 2), by tile count then base-5 code."""
    shapes = [v for v in itertools.product((0, 2, 3), repeat=7) if v.count(2) <= 1 and sum(v) <= HAND_TILES]
    counts = np.array(shapes, dtype=np.uint8)
    tiles = counts.sum(axis=1, dtype=np.int64)
    codes = counts.astype(np.int64) @ POW5[:7]
    order = np.lexsort((codes, tiles))
    return counts[order], tiles[order]


@dataclass(frozen=True)
class Space:
    """A restricted space of complete concealed standard hands, ready for the fill kernel.

    Attributes
    ----------
    shapes : ndarray, shape (K, 9), uint8
        The allowed shapes of the four groups (m, p, s, z) stacked; honours use 7 columns.
    shape_mult : ndarray, shape (K,), int64
        ``prod C(4, count)`` of each shape.
    first : ndarray, shape (4, 18), int64
        Index in ``shapes`` of the first shape of group g with n tiles; ``first[g, n] + k`` is its k-th.
    combos : ndarray, shape (C, 4), int64
        Tile counts ``(n_m, n_p, n_s, n_z)`` of each combination, in enumeration order.
    sizes : ndarray, shape (C, 4), int64
        Number of allowed shapes of each group in each combination.
    start : ndarray, shape (C + 1,), int64
        Index of the first hand of each combination; ``start[-1]`` is the size of the space.
    """

    shapes: np.ndarray
    shape_mult: np.ndarray
    first: np.ndarray
    combos: np.ndarray
    sizes: np.ndarray
    start: np.ndarray

    def __len__(self) -> int:
        return int(self.start[-1])

    @property
    def total_multiplicity(self) -> int:
        """Sum of the multiplicities of every hand (distinct 17-tile draws that are complete standard hands)."""
        total = 0
        for (nm, np_, ns, nz), (km, kp, ks, kz) in zip(self.combos.tolist(), self.sizes.tolist()):
            part = 1
            for g, (n, k) in enumerate(((nm, km), (np_, kp), (ns, ks), (nz, kz))):
                lo = int(self.first[g, n])
                part *= int(self.shape_mult[lo:lo + k].sum())
            total += part
        return total


def _check_fixed(fixed) -> np.ndarray:
    if fixed is None:
        return np.zeros(N_KINDS, dtype=np.int64)
    raw = np.asarray(fixed)
    if raw.shape != (N_KINDS,) or not (np.issubdtype(raw.dtype, np.integer) or raw.dtype == np.bool_):
        raise ValueError(f"fixed must be a (34,) integer count vector, got shape {raw.shape} dtype {raw.dtype}")
    if ((raw < 0) | (raw > 4)).any():
        t = int(np.flatnonzero((raw < 0) | (raw > 4))[0])
        raise ValueError(f"fixed: count {raw[t]} of tile {t} is out of range (0 to 4)")
    return raw.astype(np.int64)


def _check_suits(suits: str) -> str:
    if not isinstance(suits, str) or any(c not in _SUIT_LETTERS for c in suits) or len(set(suits)) != len(suits):
        raise ValueError(f"suits must be a subset of 'mps' (each letter at most once), got {suits!r}")
    return suits


def space(*, suits: str = "mps", honours: bool = True, fixed=None) -> Space:
    """The combination tables of a (restricted) space; see :func:`enumerate_hands` for the options.

    Raises
    ------
    ValueError
        ``suits`` not a subset of ``"mps"``; ``fixed`` not a (34,) vector of counts 0-4.
    """
    suits = _check_suits(suits)
    fixed = _check_fixed(fixed)
    return _space(suits, bool(honours), fixed.tobytes())


@lru_cache(maxsize=32)
def _space(suits: str, honours: bool, fixed_bytes: bytes) -> Space:
    fixed = np.frombuffer(fixed_bytes, dtype=np.int64)
    number_counts, number_tiles = _number_shapes()
    honour_counts, honour_tiles = _honour_shapes()
    blocks, mults = [], []
    first = np.zeros((4, HAND_TILES + 1), dtype=np.int64)
    count = np.zeros((4, HAND_TILES + 1), dtype=np.int64)
    offset = 0
    for g in range(4):
        width, base = _GROUP_WIDTH[g], _GROUP_BASE[g]
        counts, tiles = (honour_counts, honour_tiles) if g == 3 else (number_counts, number_tiles)
        allowed = honours if g == 3 else _SUIT_LETTERS[g] in suits
        keep = (counts >= fixed[base:base + width]).all(axis=1)
        if not allowed:
            keep &= tiles == 0
        counts, tiles = counts[keep], tiles[keep]
        padded = np.zeros((len(counts), 9), dtype=np.uint8)
        padded[:, :width] = counts
        blocks.append(padded)
        mults.append(_COPIES[counts].prod(axis=1))
        count[g] = np.bincount(tiles, minlength=HAND_TILES + 1)
        first[g] = offset + np.concatenate(([0], np.cumsum(count[g])[:-1]))
        offset += len(counts)
    combos, sizes = [], []
    for n in itertools.product(range(HAND_TILES + 1), repeat=3):
        nz = HAND_TILES - sum(n)
        key = (*n, nz)
        if nz < 0 or sum(k % 3 == 2 for k in key) != 1 or any(k % 3 == 1 for k in key):
            continue
        k = [int(count[g, key[g]]) for g in range(4)]
        if min(k) == 0:
            continue
        combos.append(key)
        sizes.append(k)
    combos_arr = np.array(combos, dtype=np.int64).reshape(-1, 4)
    sizes_arr = np.array(sizes, dtype=np.int64).reshape(-1, 4)
    start = np.zeros(len(combos) + 1, dtype=np.int64)
    start[1:] = np.cumsum(sizes_arr.prod(axis=1))
    return Space(np.concatenate(blocks), np.concatenate(mults).astype(np.int64), first, combos_arr, sizes_arr, start)


def space_size(*, suits: str = "mps", honours: bool = True, fixed=None) -> int:
    """Number of hands :func:`enumerate_hands` yields with the same options (no enumeration)."""
    return len(space(suits=suits, honours=honours, fixed=fixed))


@jit_parallel
def _fill(first_row, shapes, shape_mult, first, combos, sizes, start, hands, mult):
    """Decode hands ``first_row .. first_row + len(hands) - 1`` of the space into ``hands`` and ``mult``.

    Row ``j`` depends only on its index, so the result is the same for any thread count.
    """
    n = hands.shape[0]
    n_blocks = (n + _BLOCK - 1) // _BLOCK
    n_combos = combos.shape[0]
    for b in prange(n_blocks):
        lo = b * _BLOCK
        hi = min(n, lo + _BLOCK)
        g = first_row + lo
        # The combination holding index g: the last c with start[c] <= g.
        a, z = 0, n_combos - 1
        while a < z:
            mid = (a + z + 1) // 2
            if start[mid] <= g:
                a = mid
            else:
                z = mid - 1
        c = a
        for j in range(lo, hi):
            g = first_row + j
            while start[c + 1] <= g:
                c += 1
            local = g - start[c]
            m = 1
            for k in range(N_KINDS):
                hands[j, k] = 0
            for grp in range(3, -1, -1):
                size = sizes[c, grp]
                idx = first[grp, combos[c, grp]] + local % size
                local //= size
                m *= shape_mult[idx]
                base = 9 * grp
                width = 7 if grp == 3 else 9
                for i in range(width):
                    hands[j, base + i] = shapes[idx, i]
            mult[j] = m


def enumerate_hands(
    *, suits: str = "mps", honours: bool = True, fixed=None, chunk_rows: int = 1 << 20, start: int = 0,
    stop: int | None = None
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every complete concealed standard 17-tile hand, in chunks (LRC rules sections 2, 3).

    A hand is a count vector that splits into five sets (sheungs, pongs) and
    one pair of eyes, no declared set, at most 4 of a kind.  The whole space
    has 118,856,487 hands (:data:`FULL_SPACE_SIZE`); the order is documented
    in the module docstring and is the same for any chunk size or thread count.

    Parameters
    ----------
    suits : str
        The number suits allowed, a subset of ``"mps"`` (``"s"``: bamboo only).
    honours : bool
        Whether winds and dragons are allowed.
    fixed : array_like, shape (34,), optional
        Tiles every hand must hold (``hand >= fixed`` kind by kind).
    chunk_rows : int
        Hands per chunk (the last one may be shorter).  Memory is about
        ``42 * chunk_rows`` bytes per chunk.
    start, stop : int
        Only hands ``start .. stop - 1`` of the space (default: all), in the
        same order: ranges cut anywhere and joined give the whole space, so
        that a job can split the enumeration into independent tasks.

    Yields
    ------
    hands : ndarray, shape (chunk, 34), uint8
        Tile counts in Tenhou order.
    multiplicity : ndarray, shape (chunk,), int64
        ``prod over kinds of C(4, count)``: how many distinct sets of 17
        physical tiles have that count vector.

    Raises
    ------
    ValueError
        Bad ``suits``, ``fixed``, ``chunk_rows`` or range (raised at the call, not at the first ``next``).

    Examples
    --------
    >>> sum(len(h) for h, _ in enumerate_hands(suits="s", honours=False))
    26414
    """
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    sp = space(suits=suits, honours=honours, fixed=fixed)
    total = len(sp)
    stop = total if stop is None else stop
    for name, value in (("start", start), ("stop", stop)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value <= total:
            raise ValueError(f"{name} must be an integer in 0 .. {total} (the space's size), got {value!r}")
    if start > stop:
        raise ValueError(f"start ({start}) must not be after stop ({stop})")
    return _chunks(sp, int(chunk_rows), int(start), int(stop))


def _chunks(sp: Space, chunk_rows: int, start: int, stop: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    for first_row in range(start, stop, chunk_rows):
        k = min(chunk_rows, stop - first_row)
        hands = np.empty((k, N_KINDS), dtype=np.uint8)
        mult = np.empty(k, dtype=np.int64)
        _fill(first_row, sp.shapes, sp.shape_mult, sp.first, sp.combos, sp.sizes, sp.start, hands, mult)
        yield hands, mult
