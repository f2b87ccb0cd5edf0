"""Per-group distance tables for the shanten kernel (LRC rules sections 3 and 7; PERF.md, nyanten-style design).

A group is a number suit (9 kinds) or the honours (7 kinds, no sheungs).  Its
counts have a base-5 code ``sum(count[i] * 5**i)``.  For every code ``c`` and
every class ``(m, e)`` (``m`` sets, 0 to 5, and ``e`` eyes, 0 or 1) the table
holds the **distance**: the fewest tiles to add to ``c`` so that it holds
(contains) ``m`` sets and ``e`` eyes of that group, that is
``min over complete T of sum(max(0, T[k] - c[k]))`` over the complete shapes
``T`` with at most 4 copies of each kind.  The distance of a whole hand to a
complete 17-tile standard hand is the min-plus combination of its groups'
entries; the hand's shanten is that distance less one.

``number_table`` : (5**9,) uint64 and ``honour_table`` : (5**7,) uint64
    bits ``5 * (2 * m + e)`` to ``+ 4``: the distance of class ``(m, e)`` (at
    most 31).  ``number_table`` only, for 16 Orphans: bits 60-61 the most
    tiles of one orphan sheung (147 ... 369) the suit holds, bit 62 set when
    one such best orphan sheung holds a kind held twice or more (it can give
    the eyes).

Built by two passes over the codes (no recursion): in increasing code order,
which classes each code contains (a code is complete, or removing one tile
leaves a code that contains the class); in decreasing code order, the
distance (0 if contained, else one more than the least over adding one tile).
About two seconds after JIT; cached as ``.npy`` in the user cache folder
keyed on a digest of this file (as :mod:`fastscore.tables`).

The batch kernel reads the same distances through **classes**: the number table
holds only 381 distinct entries and the honour table 83, so each code also has
a class id (``number_ids`` (5**9,) uint16, ``honour_ids`` (5**7,) uint16, the
entries being ``number_classes[id]`` / ``honour_classes[id]``), and the
min-plus combination of every pair of classes is precomputed
(``number_pairs[a, b]`` for two number suits, ``honour_pairs[a, h]`` for a
number suit and the honours).  A hand's
standard distance is then two table reads and one final step, and the ids
(3.9 MB) are a quarter of the number table's size (:func:`class_tables`;
:func:`fastscore.kernels.shanten.row_distances`).

The four-copies limit is exact here only for a group in which the hand has
no declared set: the kernel works out a group with declared tiles directly
(:func:`fastscore.kernels.shanten.capped_entry`), and tests check both
against each other and against brute force.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from ._cache import user_cache_dir
from ._jit import jit
from .tables import _huge_page_empty, load_or_build, table_digest

__all__ = ["DIST_BITS", "DIST_MASK", "ORPHAN_GAIN_SHIFT", "ORPHAN_EYES_BIT", "ORPHAN_SHEUNG_MASKS",
           "build_class_tables", "build_table", "class_tables", "combine_classes", "shanten_tables"]

DIST_BITS = 5
DIST_MASK = 31
ORPHAN_GAIN_SHIFT = 60
ORPHAN_EYES_BIT = 62
#: The ten orphan sheungs of a number suit (LRC rules section 3) as 9-bit masks of positions 0-8.
ORPHAN_SHEUNG_MASKS = np.array(
    [(1 << a) | (1 << b) | (1 << c) for a in range(9) for b in range(a + 3, 9) for c in range(b + 3, 9)],
    dtype=np.int64)
TABLE_NAMES = ("shanten_number", "shanten_honour")


@jit
def _build(n_kinds, sheungs, orphan_masks, table):
    """Fill ``table`` (5**n_kinds,) uint64 with every code's distances (module docstring)."""
    n_codes = table.shape[0]
    pow5 = np.empty(n_kinds, dtype=np.int64)
    p = 1
    for i in range(n_kinds):
        pow5[i] = p
        p *= 5
    complete = np.zeros(n_codes, dtype=np.bool_)
    contains = np.zeros(n_codes, dtype=np.uint16)
    digits = np.empty(n_kinds, dtype=np.int64)
    for v in range(n_codes):
        total = 0
        x = v
        for i in range(n_kinds):
            digits[i] = x % 5
            x //= 5
            total += digits[i]
        r = total % 3
        comp = False
        if total == 0:
            comp = True
        elif r != 1:
            i = 0
            while digits[i] == 0:
                i += 1
            # The lowest tile held is in a pong, a sheung starting there, or the eyes.
            if digits[i] >= 3 and complete[v - 3 * pow5[i]]:
                comp = True
            elif sheungs and i <= n_kinds - 3 and digits[i + 1] > 0 and digits[i + 2] > 0 \
                    and complete[v - pow5[i] - pow5[i + 1] - pow5[i + 2]]:
                comp = True
            elif r == 2 and digits[i] >= 2 and complete[v - 2 * pow5[i]]:
                comp = True
        complete[v] = comp
        bits = 0
        if comp and total <= 17:
            bits = 1 << (2 * (total // 3) + (1 if r == 2 else 0))
        for i in range(n_kinds):
            if digits[i] > 0:
                bits |= contains[v - pow5[i]]
        contains[v] = bits
    dist = np.empty((n_codes, 12), dtype=np.uint8)
    for v in range(n_codes - 1, -1, -1):
        x = v
        presence = 0
        pairs = 0
        for i in range(n_kinds):
            digits[i] = x % 5
            x //= 5
            presence |= (1 if digits[i] > 0 else 0) << i
            pairs |= (1 if digits[i] > 1 else 0) << i
        entry = np.uint64(0)
        for cls in range(12):
            d = 0
            if (contains[v] >> cls) & 1 == 0:
                d = 31
                for i in range(n_kinds):
                    if digits[i] < 4:
                        d = min(d, 1 + np.int64(dist[v + pow5[i], cls]))
            dist[v, cls] = d
            entry |= np.uint64(d) << np.uint64(DIST_BITS * cls)
        if n_kinds == 9:
            gain = 0
            eyes = 0
            for j in range(orphan_masks.shape[0]):
                m = orphan_masks[j]
                g = 0
                y = presence & m
                while y:
                    y &= y - 1
                    g += 1
                if g > gain:
                    gain = g
                    eyes = 0
                if g == gain and (pairs & m) != 0:
                    eyes = 1
            entry |= (np.uint64(gain) << np.uint64(ORPHAN_GAIN_SHIFT)) | (np.uint64(eyes) << np.uint64(ORPHAN_EYES_BIT))
        table[v] = entry


def build_table(n_kinds: int) -> np.ndarray:
    """The distance table of a group of ``n_kinds`` kinds: 9 (a number suit, sheungs allowed) or 7
    (the honours); ``(5**n_kinds,) uint64`` (module docstring)."""
    table = np.zeros(5**n_kinds, dtype=np.uint64)
    _build(n_kinds, n_kinds == 9, ORPHAN_SHEUNG_MASKS, table)
    return table


def _paths(names=TABLE_NAMES) -> dict[str, Path]:
    digest = table_digest([Path(__file__)])
    return {name: user_cache_dir() / f"{name}-{digest}.npy" for name in names}


def combine_classes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``(len(a), len(b)) uint64``: the min-plus combination of every entry of ``a`` with every entry of
    ``b`` (``a[i]`` with ``b[j]`` at ``[i, j]``), the distance fields only, each
    saturating at :data:`DIST_MASK` (31, a distance no class reaches): what :func:`fastscore.kernels.shanten.combine` gives for each pair (tested)."""
    def fields(entries):  # (K, 6, 2): the distance of class (m, e)
        shifts = (DIST_BITS * np.arange(12, dtype=np.uint64)).reshape(6, 2)
        return ((entries[:, None, None] >> shifts) & np.uint64(DIST_MASK)).astype(np.int64)

    fa, fb = fields(a)[:, None], fields(b)[None, :]
    out = np.zeros((len(a), len(b)), dtype=np.uint64)
    for m in range(6):
        d0 = np.full((len(a), len(b)), DIST_MASK, dtype=np.int64)
        d1 = d0.copy()
        for m1 in range(m + 1):
            a0, a1, b0, b1 = fa[..., m1, 0], fa[..., m1, 1], fb[..., m - m1, 0], fb[..., m - m1, 1]
            d0 = np.minimum(d0, a0 + b0)
            d1 = np.minimum(d1, np.minimum(a0 + b1, a1 + b0))
        out |= (np.minimum(d0, DIST_MASK).astype(np.uint64) << np.uint64(DIST_BITS * 2 * m)) \
            | (np.minimum(d1, DIST_MASK).astype(np.uint64) << np.uint64(DIST_BITS * (2 * m + 1)))
    return out


CLASS_TABLE_NAMES = ("shanten_number_ids", "shanten_honour_ids", "shanten_number_classes", "shanten_number_pairs",
                     "shanten_honour_pairs")


def build_class_tables(number: np.ndarray, honour: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`class_tables` worked out from the two distance tables (about 0.3 s)."""
    number_classes, number_ids = np.unique(number, return_inverse=True)
    honour_classes, honour_ids = np.unique(honour, return_inverse=True)
    return (number_ids.astype(np.uint16), honour_ids.astype(np.uint16), number_classes,
            combine_classes(number_classes, number_classes), combine_classes(number_classes, honour_classes))


@lru_cache(maxsize=1)
def class_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(number_ids (5**9,) uint16, honour_ids (5**7,) uint16, number_classes (NV,) uint64,
    number_pairs (NV, NV) uint64, honour_pairs (NV, HV) uint64)``, NV and HV the number of classes:
    :func:`shanten_tables` by class (module docstring), loaded from the cache or worked out from them
    (and cached) on first use, once a process; read-only."""
    paths = _paths(CLASS_TABLE_NAMES)
    tables = list(load_or_build(paths, lambda: build_class_tables(*shanten_tables()), "shanten class tables"))
    ids = _huge_page_empty(tables[0].shape[0], np.uint16)
    ids[:] = tables[0]
    tables[0] = ids
    for table in tables:
        table.flags.writeable = False
    return tuple(tables)


@lru_cache(maxsize=1)
def shanten_tables() -> tuple[np.ndarray, np.ndarray]:
    """``(number_table (5**9,) uint64, honour_table (5**7,) uint64)``, loaded from the cache or built
    (and cached) on first use, once a process; read-only.  The kernels take them as arguments."""
    tables = load_or_build(_paths(), lambda: (build_table(9), build_table(7)), "shanten tables")
    number = _huge_page_empty(tables[0].shape[0], np.uint64)
    number[:] = tables[0]
    honour = np.array(tables[1])
    number.flags.writeable = False
    honour.flags.writeable = False
    return number, honour
