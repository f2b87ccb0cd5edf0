"""Seeded random winning and ready hands, by family, for simulations and benchmarks (LRC rules, sections 2, 3).

:func:`sample_winning` and :func:`sample_ready` fill :class:`~fastscore.HandBatch`
columns directly from one numba kernel (parallel above 511 hands): no Python runs per hand.

Families (:data:`FAMILIES`):

======================  ==========================================================
``mixed``               the default blend of the families below (:data:`MIXED_BLEND`)
``standard``            five sets and eyes of any tiles, 0 to 4 declared sets
``half_flush``          standard, one number suit plus honours (both present)
``full_flush``          standard, one number suit only
``honours``             standard with 2 to 5 wind/dragon pongs, eyes mostly an honour
``nico_nico``           seven pairs plus a pong, sometimes four of a kind as two pairs
``thirteen_orphans``    the 13 terminals and honours, one of them again, one more set
``sixteen_orphans``     an orphan sheung per number suit, the 7 honours, eyes
======================  ==========================================================

The ``mixed`` blend, per mille: standard 550, half_flush 120, full_flush 80,
honours 100, nico_nico 70, thirteen_orphans 40, sixteen_orphans 40.  A hand's
family is how it was built, not how it scores: its best shape may differ.

Below the minimum.  The families draw shapes, not scores: sets are drawn
without regard to points, so many hands are complete but worth less than the
round minimum (not legal, payout 0).  In 1,000,000 hands of the default blend
(seed 0) 50.4 % are below the minimum: 85 % of the ``standard`` family, 38 %
of ``honours``, none of the flushes and special shapes (their rows alone reach
the minimum).  Use :func:`fastscore.score_batch` and keep ``legal`` rows when
only legal wins are wanted.

Standard-shape families declare 0 to 4 of their five sets (30 % none):
exposed sheungs, exposed pongs, exposed gongs and concealed gongs.  The
special shapes declare nothing.  The winning tile is drawn uniformly from the
17 - 3 x (declared sets) concealed tiles.  Context: self-drawn 40 %, seat and
round uniform, no flowers 50 % (otherwise each of the 8 bonus tiles with
probability 1/4), a streak of 1-3 for a quarter of East winners, Closing
for 20 % of hands without an exposed set.

Determinism.  Each hand ``i`` has its own random stream, keyed by
``(seed, i)`` through a keyed 32-bit integer hash; the kernel's threads
never share a generator.  A batch is therefore a pure function of
``(n, seed, families)``, whatever ``NUMBA_NUM_THREADS`` is, and the first
``m`` hands of ``sample_winning(n, seed)`` are ``sample_winning(m, seed)``.
The kernels use only int64 arithmetic that cannot overflow, so they give the
same hands under ``NUMBA_DISABLE_JIT=1``.

Dealt hands.  :func:`sample_dealt` deals 16 (or 17) tiles from a shuffled
136-tile wall: the hands of a game's start, mostly 3 to 5 exchanges from
ready, for ``shanten-batch`` and ``discards-batch --sample``.  Numpy only,
counter-based as above (hand ``i`` of ``seed`` is the same in any chunk).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

import numpy as np

from ._jit import jit, jit_batch, prange
from .batch import HandBatch
from .tiles import N_KINDS, SetKind

__all__ = ["FAMILIES", "MIXED_BLEND", "sample_dealt", "sample_winning", "sample_ready"]

#: Family names accepted by ``families=`` (see the module docstring).
FAMILIES = (
    "mixed",
    "standard",
    "half_flush",
    "full_flush",
    "honours",
    "nico_nico",
    "thirteen_orphans",
    "sixteen_orphans",
)
MIXED, STANDARD, HALF_FLUSH, FULL_FLUSH, HONOURS, NICO_NICO, THIRTEEN_ORPHANS, SIXTEEN_ORPHANS = range(8)

#: Weights (per mille) of the ``mixed`` blend.
MIXED_BLEND = (
    ("standard", 550),
    ("half_flush", 120),
    ("full_flush", 80),
    ("honours", 100),
    ("nico_nico", 70),
    ("thirteen_orphans", 40),
    ("sixteen_orphans", 40),
)

#: The ten orphan sheungs of 16 Orphans (LRC rules, section 3), as offsets 0-8 in a suit.
ORPHAN_SHEUNGS = np.array(
    [[0, 3, 6], [0, 3, 7], [0, 3, 8], [0, 4, 7], [0, 4, 8], [0, 5, 8], [1, 4, 7], [1, 4, 8], [1, 5, 8], [2, 5, 8]],
    dtype=np.int64,
)
#: The 13 terminals and honours.
ORPHANS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)
#: Number of declared sets of a standard-shape hand: cumulative per mille for 0, 1, 2, 3, 4.
DECLARED_CUM = np.array([300, 500, 700, 850, 1000], dtype=np.int64)
#: Number of honour pongs of the ``honours`` family: cumulative per mille for 2, 3, 4, 5.
HONOUR_PONGS_CUM = np.array([350, 700, 900, 1000], dtype=np.int64)

# SetKind values (fastscore.tiles.SetKind), as plain ints for the kernels.
_SHEUNG, _PONG, _GONG, _CONCEALED_GONG = (int(k) for k in tuple(SetKind)[1:])
_M32 = 0xFFFFFFFF
_GOLDEN32 = 0x9E3779B9
_M64 = (1 << 64) - 1
BLOCK = 1024
#: Restarts before a hand falls back to 16 Orphans (never reached in practice).
MAX_RESTARTS = 200


# --------------------------------------------------------------------------- random numbers


@jit
def _mul32(x, c):
    """``(x * c) mod 2**32`` for ``0 <= x, c < 2**32``, without overflowing int64.

    ``c``'s top bit contributes ``x * 2**31 = (x & 1) << 31 (mod 2**32)``;
    the rest is a product below ``2**63``.
    """
    return (x * (c & 0x7FFFFFFF) + ((x & (c >> 31)) << 31)) & _M32


@jit
def _mix32(x):
    """A 32-bit integer hash (Wellons' ``lowbias32``); ``0 <= x < 2**32``."""
    x ^= x >> 16
    x = _mul32(x, 0x7FEB352D)
    x ^= x >> 15
    x = _mul32(x, 0x846CA68B)
    x ^= x >> 16
    return x


@jit
def _seed_hand(state, key0, key1, i):
    """Key the stream of hand ``i``: a Weyl position and an xor key, from two keyed hashes of ``i``."""
    lo = i & _M32
    hi = (i >> 32) & _M32
    state[0] = _mix32(_mix32((lo + key0) & _M32) ^ hi)
    state[1] = _mix32(_mix32((lo + key1) & _M32) ^ hi ^ 0x5BD1E995)


#: Constant arguments of the helpers below go through ``_I``: numba compiles a called function once per
#: literal it is given (``_rand(state, 1000)`` and ``_rand(state, 34)`` would be two builds), once for int64.
_I = np.int64


@jit
def _rand(state, m):
    """Uniform integer in ``[0, m)``, ``1 <= m < 2**31``; advances ``state``."""
    state[0] = (state[0] + _GOLDEN32) & _M32
    return (_mix32(state[0] ^ state[1]) * m) >> 32


@jit
def _pick_cum(state, cum):
    """Index drawn from a cumulative per-mille table."""
    r = _rand(state, _I(1000))
    k = 0
    while cum[k] <= r:
        k += 1
    return k


# --------------------------------------------------------------------------- groups


@jit
def _try_sheung(held, t):
    if held[t] < 4 and held[t + 1] < 4 and held[t + 2] < 4:
        held[t] += 1
        held[t + 1] += 1
        held[t + 2] += 1
        return True
    return False


@jit
def _try_add(held, t, k):
    if held[t] + k <= 4:
        held[t] += k
        return True
    return False


@jit
def _draw_set(state, held, set_kind, set_tile, j, mode, suit):
    """Draw set ``j`` of a standard-shape hand into ``held``; False after 16 failed draws.

    ``mode``: 0 any tiles, 1 half flush of ``suit``, 2 full flush of ``suit``,
    3 number tiles only, 4 an honour pong.
    """
    for _ in range(16):
        if mode == 4 or (mode == 1 and _rand(state, _I(1000)) < 350):
            t = 27 + _rand(state, _I(7))
            if _try_add(held, t, _I(3)):
                set_kind[j] = _PONG
                set_tile[j] = t
                return True
            continue
        s = suit if mode == 1 or mode == 2 else _rand(state, _I(3))
        sheung_permille = 650 if mode == 2 else 550
        if _rand(state, _I(1000)) < sheung_permille:
            t = 9 * s + _rand(state, _I(7))
            if _try_sheung(held, t):
                set_kind[j] = _SHEUNG
                set_tile[j] = t
                return True
            continue
        if mode == 0:
            t = _rand(state, _I(N_KINDS))
        elif mode == 3:
            t = _rand(state, _I(27))
        else:
            t = 9 * s + _rand(state, _I(9))
        if _try_add(held, t, _I(3)):
            set_kind[j] = _PONG
            set_tile[j] = t
            return True
    return False


@jit
def _draw_eyes(state, held, mode, suit):
    """Add the eyes: ``mode`` 0 any, 1 half flush, 2 full flush, 3 honour-heavy. False on failure."""
    for _ in range(16):
        if mode == 0:
            t = _rand(state, _I(N_KINDS))
        elif mode == 2:
            t = 9 * suit + _rand(state, _I(9))
        elif mode == 1:
            t = 27 + _rand(state, _I(7)) if _rand(state, _I(1000)) < 350 else 9 * suit + _rand(state, _I(9))
        else:
            t = 27 + _rand(state, _I(7)) if _rand(state, _I(1000)) < 700 else _rand(state, _I(27))
        if _try_add(held, t, _I(2)):
            return True
    return False


@jit
def _standard_hand(state, family, held, set_kind, set_tile, honour_pongs_cum):
    """Five sets and eyes of ``family`` into ``held`` (sets in ``set_kind``/``set_tile``); False on failure."""
    suit = _rand(state, _I(3))
    if family == HALF_FLUSH:
        mode = 1
    elif family == FULL_FLUSH:
        mode = 2
    else:
        mode = 0
    n_honour = 2 + _pick_cum(state, honour_pongs_cum) if family == HONOURS else 0
    for j in range(5):
        set_mode = mode
        if family == HONOURS:
            set_mode = 4 if j < n_honour else 3
        if not _draw_set(state, held, set_kind, set_tile, j, set_mode, suit):
            return False
    eyes_mode = 3 if family == HONOURS else mode
    if not _draw_eyes(state, held, eyes_mode, suit):
        return False
    if family == HALF_FLUSH:
        honours = 0
        for t in range(27, N_KINDS):
            honours += held[t]
        if honours == 0 or honours == 17:
            return False
    return True


@jit
def _declare(state, held, concealed, set_kind, set_tile, declared_cum):
    """Shuffle the five sets, declare the first d (0-4) of them; fill ``concealed``; return d."""
    for j in range(4, 0, -1):
        k = _rand(state, j + 1)
        a = set_kind[j]
        set_kind[j] = set_kind[k]
        set_kind[k] = a
        a = set_tile[j]
        set_tile[j] = set_tile[k]
        set_tile[k] = a
    for t in range(N_KINDS):
        concealed[t] = held[t]
    d = _pick_cum(state, declared_cum)
    for j in range(d):
        t = set_tile[j]
        if set_kind[j] == _SHEUNG:
            concealed[t] -= 1
            concealed[t + 1] -= 1
            concealed[t + 2] -= 1
            continue
        concealed[t] -= 3
        r = _rand(state, _I(1000))
        if r < 400 and held[t] == 3:
            held[t] = 4
            set_kind[j] = _GONG if r < 200 else _CONCEALED_GONG
    return d


@jit
def _nico_nico(state, held):
    """Seven pairs and a pong; a pair lands on an existing pair (four of a kind) 8 % of the time."""
    held[_rand(state, _I(N_KINDS))] = 3
    pairs = 0
    while pairs < 7:
        if _rand(state, _I(1000)) < 80:
            candidates = 0
            for t in range(N_KINDS):
                if held[t] == 2:
                    candidates += 1
            if candidates > 0:
                r = _rand(state, candidates)
                for t in range(N_KINDS):
                    if held[t] == 2:
                        if r == 0:
                            held[t] = 4
                            break
                        r -= 1
                pairs += 1
                continue
        t = _rand(state, _I(N_KINDS))
        if held[t] == 0:
            held[t] = 2
            pairs += 1


@jit
def _thirteen_orphans(state, held, orphans):
    """One of each orphan, one of them again, one more sheung or pong of any tiles."""
    for k in range(13):
        held[orphans[k]] = 1
    held[orphans[_rand(state, _I(13))]] += 1
    while True:
        if _rand(state, _I(1000)) < 500:
            if _try_sheung(held, 9 * _rand(state, _I(3)) + _rand(state, _I(7))):
                return
        elif _try_add(held, _rand(state, _I(N_KINDS)), _I(3)):
            return


@jit
def _sixteen_orphans(state, held, orphan_sheungs):
    """An orphan sheung in each number suit, the 7 honours, and one of these 16 again as the eyes."""
    for s in range(3):
        p = _rand(state, _I(10))
        for k in range(3):
            held[9 * s + orphan_sheungs[p, k]] += 1
    for t in range(27, N_KINDS):
        held[t] = 1
    r = _rand(state, _I(16))
    for t in range(N_KINDS):
        if held[t] > 0:
            if r == 0:
                held[t] += 1
                break
            r -= 1


# --------------------------------------------------------------------------- one hand, the batch


@jit
def _one_hand(state, family, held, concealed, set_kind, set_tile, tables):
    """Generate one hand of ``family`` (never MIXED); return (family used, declared sets d).

    On return ``held`` holds every tile (winning tile included), ``concealed``
    the concealed part with the winning tile still in it.
    """
    orphans, orphan_sheungs, declared_cum, honour_pongs_cum = tables
    for _ in range(MAX_RESTARTS):
        for t in range(N_KINDS):
            held[t] = 0
        if family == NICO_NICO or family == THIRTEEN_ORPHANS or family == SIXTEEN_ORPHANS:
            if family == NICO_NICO:
                _nico_nico(state, held)
            elif family == THIRTEEN_ORPHANS:
                _thirteen_orphans(state, held, orphans)
            else:
                _sixteen_orphans(state, held, orphan_sheungs)
            for t in range(N_KINDS):
                concealed[t] = held[t]
            return family, 0
        if _standard_hand(state, family, held, set_kind, set_tile, honour_pongs_cum):
            return family, _declare(state, held, concealed, set_kind, set_tile, declared_cum)
    for t in range(N_KINDS):
        held[t] = 0
    _sixteen_orphans(state, held, orphan_sheungs)
    for t in range(N_KINDS):
        concealed[t] = held[t]
    return SIXTEEN_ORPHANS, 0


@jit_batch
def _sample_kernel(key0, key1, start, choices, blend_families, blend_cum, tables, ready,
                   concealed, declared, win, self_drawn, seat, round_wind, flowers, streak, closing, family_out):
    """Fill N rows of the HandBatch columns (and ``family_out``) in place; see :func:`sample_winning`.

    Each row depends only on the seed and its index (``start + i``), so the serial build (small
    samples: no thread pool to wake, and less to compile on a first run) and the parallel build give
    the same rows."""
    n = concealed.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        state = np.zeros(2, dtype=np.int64)
        held = np.zeros(N_KINDS, dtype=np.int64)
        hand = np.zeros(N_KINDS, dtype=np.int64)
        set_kind = np.zeros(5, dtype=np.int64)
        set_tile = np.zeros(5, dtype=np.int64)
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            _seed_hand(state, key0, key1, start + i)
            family = choices[_rand(state, choices.shape[0])]
            if family == MIXED:
                family = blend_families[_pick_cum(state, blend_cum)]
            family, d = _one_hand(state, family, held, hand, set_kind, set_tile, tables)
            # The winning tile: uniform over the 17 - 3d concealed tiles.
            r = _rand(state, 17 - 3 * d)
            w = 0
            while r >= hand[w]:
                r -= hand[w]
                w += 1
            hand[w] -= 1
            exposed = False
            for j in range(5):
                if j < d:
                    declared[i, j, 0] = set_kind[j]
                    declared[i, j, 1] = set_tile[j]
                    if set_kind[j] != _CONCEALED_GONG:
                        exposed = True
                else:
                    declared[i, j, 0] = 0
                    declared[i, j, 1] = 0
            for t in range(N_KINDS):
                concealed[i, t] = hand[t]
            drawn = _rand(state, _I(1000)) < 400
            self_drawn[i] = drawn and not ready
            win[i] = -1 if ready else w
            s = _rand(state, _I(4))
            seat[i] = s
            round_wind[i] = _rand(state, _I(4))
            f = 0
            if _rand(state, _I(1000)) >= 500:
                bits = _rand(state, _I(1 << 16))  # two bits per bonus tile: held when both are 0
                for k in range(8):
                    if (bits >> (2 * k)) & 3 == 0:
                        f |= 1 << k
            flowers[i] = f
            k = _rand(state, _I(1000))
            streak[i] = 1 + _rand(state, _I(3)) if s == 0 and k < 250 else 0
            closing[i] = (not exposed) and _rand(state, _I(1000)) < 200
            family_out[i] = family


# --------------------------------------------------------------------------- public API


def _family_codes(families) -> np.ndarray:
    if families is None:
        return np.array([MIXED], dtype=np.int64)
    if isinstance(families, str):
        families = (families,)
    if not isinstance(families, Iterable):
        raise TypeError(f"families must be None, a family name or names, got {type(families).__name__}")
    codes: list[int] = []
    for name in families:
        if name not in FAMILIES:
            raise ValueError(f"unknown family {name!r}; choose from {', '.join(FAMILIES)}")
        if FAMILIES.index(name) not in codes:
            codes.append(FAMILIES.index(name))
    if not codes:
        raise ValueError(f"families is empty; choose from {', '.join(FAMILIES)}")
    return np.array(codes, dtype=np.int64)


def _keys(seed) -> tuple[int, int]:
    """Two 32-bit keys from ``seed`` (any integer, taken modulo 2**64) by splitmix64."""
    z = (operator.index(seed) + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    z ^= z >> 31
    return z & _M32, z >> 32


def _sample(n, seed, families, ready: bool, start: int = 0) -> tuple[HandBatch, np.ndarray]:
    """The batch and each row's family code (index into :data:`FAMILIES`, never ``mixed``)."""
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"n must be at least 0, got {n}")
    choices = _family_codes(families)
    key0, key1 = _keys(seed)
    blend_families = np.array([FAMILIES.index(name) for name, _ in MIXED_BLEND], dtype=np.int64)
    blend_cum = np.cumsum([w for _, w in MIXED_BLEND]).astype(np.int64)
    tables = (ORPHANS, ORPHAN_SHEUNGS, DECLARED_CUM, HONOUR_PONGS_CUM)
    batch = HandBatch.empty(n)
    family = np.zeros(n, dtype=np.int8)
    start = operator.index(start)
    if start < 0:
        raise ValueError(f"start must be at least 0, got {start}")
    _sample_kernel.build(n)(key0, key1, start, choices, blend_families, blend_cum, tables, ready, batch.concealed,
                            batch.declared, batch.win, batch.self_drawn, batch.seat, batch.round, batch.flowers,
                            batch.streak, batch.closing, family)
    # Every generated row is valid (tests/test_sample.py); the kernels check each row as they read it.
    return batch, family


def sample_winning(n: int, seed: int = 0, *, families=None, start: int = 0, return_family: bool = False):
    """``n`` random winning hands (LRC rules, sections 2 and 3), generated in one compiled kernel.

    Parameters
    ----------
    n : int
        Number of hands.
    seed : int
        Any integer (taken modulo 2**64).  The result is a pure function of
        ``(n, seed, families)``, identical for any ``NUMBA_NUM_THREADS``;
        hand ``i`` depends only on ``(seed, i, families)``, so a longer batch
        extends a shorter one.
    families : None, str or iterable of str
        Names from :data:`FAMILIES`; each hand picks one of them uniformly
        (``mixed`` itself being the blend :data:`MIXED_BLEND`: standard 55 %,
        half_flush 12 %, full_flush 8 %, honours 10 %, nico_nico 7 %,
        thirteen_orphans 4 %, sixteen_orphans 4 %).  Default ``None``: the
        ``mixed`` blend.  The families are described in the module docstring;
        about half the hands of the blend are below the round minimum (legal
        False), as it explains.
    start : int
        Index of the first hand: ``sample_winning(n, seed, start=k)`` is rows
        ``k .. k + n - 1`` of a longer sample, so a job can stream a sample
        in chunks.
    return_family : bool
        Also return each hand's family.

    Returns
    -------
    HandBatch, or (HandBatch, ndarray) with ``return_family``
        ``concealed (n, 34) uint8`` (17 - 3 x declared - 1 tiles),
        ``declared (n, 5, 2) int8``, ``win (n,) int8`` (0-33, one of the
        hand's concealed tiles), ``self_drawn``/``closing (n,) bool``,
        ``seat``/``round``/``flowers (n,) uint8``, ``streak (n,) int32``,
        ``error (n,) uint8`` all 0.  Every row passes
        the row checks (:func:`fastscore.kernels.checks.row_fault`) and is a win under
        :func:`fastscore.score_batch` (its best shape may differ from its
        family, e.g. a Nico Nico hand that is also a standard hand).
        With ``return_family``, also ``family (n,) int8``: the index in
        :data:`FAMILIES` of the family each hand was built from (never 0,
        ``mixed``: a blended hand reports the family it drew).

    Raises
    ------
    ValueError
        ``n`` negative, or an unknown or empty ``families``.

    Examples
    --------
    >>> import fastscore
    >>> batch = sample_winning(1000, seed=7, families=("full_flush",))
    >>> bool(fastscore.score_batch(batch).is_win.all())
    True
    """
    batch, family = _sample(n, seed, families, ready=False, start=start)
    return (batch, family) if return_family else batch


def sample_ready(n: int, seed: int = 0, *, families=None, start: int = 0, return_family: bool = False):
    """``n`` random ready 16-tile hands (``win`` = -1), each with at least one wait (LRC rules, section 7).

    Each row is the matching row of ``sample_winning(n, seed, families=...)``
    with its winning tile taken off (that tile kind is a wait), ``win`` set to
    -1 and ``self_drawn`` False; every other column is the same.

    Parameters
    ----------
    n, seed, families, start, return_family
        As in :func:`sample_winning` (same determinism, same families and weights).

    Returns
    -------
    HandBatch, or (HandBatch, ndarray) with ``return_family``
        Columns as in :func:`sample_winning` with ``concealed`` holding
        16 - 3 x declared tiles and ``win (n,) int8`` all -1; passes
        the row checks without a winning tile (``batch.check(require_win=False)`` flags none).
        ``family (n,) int8`` as in :func:`sample_winning`.

    Raises
    ------
    ValueError
        ``n`` negative, or an unknown or empty ``families``.
    """
    batch, family = _sample(n, seed, families, ready=True, start=start)
    return (batch, family) if return_family else batch


# --------------------------------------------------------------------------- dealt hands

#: Draws per dealt hand in its random stream: hand ``i``'s ``k``-th draw is counter ``i * 17 + k``.
_DEALT_DRAWS = 17
_WALL = (np.arange(4 * N_KINDS) // 4).astype(np.uint8)  # the 136 tiles, four of each kind


def _splitmix(counter: np.ndarray, key: int) -> np.ndarray:
    """splitmix64 of ``counter`` (uint64, wrapping) in the stream ``key``: a bijection of the counters."""
    z = counter * np.uint64(0x9E3779B97F4A7C15) + np.uint64(key)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def sample_dealt(n: int, seed: int = 0, *, n_tiles: int = 16, start: int = 0) -> HandBatch:
    """``n`` hands dealt from shuffled 136-tile walls: 16 tiles, or 17 with the last in ``win`` (the draw).

    Each hand is the first ``n_tiles`` tiles of its own uniformly shuffled wall (four of each of the
    34 kinds, no flowers), by a partial Fisher-Yates shuffle vectorised over the hands: draw ``k`` of
    hand ``i`` is picked by the splitmix64 hash of the counter ``(start + i) * 17 + k`` keyed by
    ``seed``.  So hand ``i`` depends only on ``(seed, start + i)``, not on ``n`` or on how a job cuts
    its chunks (``sample_dealt(n, seed, start=k)`` is rows ``k .. k + n - 1`` of a longer deal), and
    the 17-tile hand ``i`` is the 16-tile hand ``i`` plus its draw.  Numpy only (no kernel to
    compile): about 0.1 s per 65,536 hands here.

    Parameters
    ----------
    n : int
        Number of hands.
    seed : int
        Any integer (taken modulo 2**64).
    n_tiles : {16, 17}
        16-tile hands (``win`` -1), or 17-tile hands: the 17th tile in ``win``, as
        :func:`fastscore.discard_analysis` reads them.
    start : int
        Index of the first hand.

    Returns
    -------
    HandBatch
        ``concealed (n, 34) uint8`` (16 tiles, at most 4 of a kind, the draw included), no declared
        sets, ``win (n,) int8`` (-1, or the drawn kind 0-33), the default context (seat and round
        East, no flowers, streak 0, not self-drawn, no Closing), ``error`` all 0.

    Raises
    ------
    ValueError
        ``n`` or ``start`` negative, ``n_tiles`` not 16 or 17.

    Examples
    --------
    >>> batch = sample_dealt(1000, seed=3, n_tiles=17)
    >>> int(batch.concealed.sum(axis=1).max()), bool((batch.win >= 0).all())
    (16, True)
    """
    n, start = operator.index(n), operator.index(start)
    if n < 0 or start < 0:
        raise ValueError(f"n and start must be at least 0, got n={n}, start={start}")
    if n_tiles not in (16, 17):
        raise ValueError(f"n_tiles must be 16 or 17, got {n_tiles!r}")
    key0, key1 = _keys(seed)
    key = key0 | key1 << 32
    rows = np.arange(n)
    wall = np.tile(_WALL, (n, 1))
    counters = (np.uint64(start) + rows.astype(np.uint64)) * np.uint64(_DEALT_DRAWS)
    for k in range(n_tiles):
        # uniform in [k, 136): the high 32 bits of the hash times the count left, over 2**32
        pick = (_splitmix(counters + np.uint64(k), key) >> np.uint64(32)) * np.uint64(len(_WALL) - k)
        r = (pick >> np.uint64(32)).astype(np.intp) + k
        drawn = wall[rows, r]
        wall[rows, r] = wall[:, k]
        wall[:, k] = drawn
    concealed = np.bincount((rows[:, None] * N_KINDS + wall[:, :16]).reshape(-1),
                            minlength=n * N_KINDS).astype(np.uint8).reshape(n, N_KINDS)
    win = wall[:, 16].astype(np.int8) if n_tiles == 17 else np.full(n, -1, dtype=np.int8)
    return HandBatch.from_arrays(concealed, win=win)
