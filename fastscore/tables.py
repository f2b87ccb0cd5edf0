"""Per-suit tables for the hot path (PERF.md "The design that gets there", 2 and 6).

A number suit's 9 counts have a base-5 code ``sum(count[i] * 5**i)`` (5**9 =
1,953,125 codes).  For every code with at most 17 tiles the recursive
decomposer below, run once, records:

``suit_info`` : (5**9,) uint32
    bit 0: complete as sets only; bit 1: complete as sets and one pair (eyes);
    bits 2-10: tiles whose addition makes it complete as sets only;
    bits 11-19: tiles whose addition makes it complete with eyes;
    for every code of at most 17 tiles, hints that let the kernels skip the special shapes cheaply:
    bits 20-23: kinds held once; bits 24-26: kinds held three times;
    bit 27: the 1 is held; bit 28: the 9 is held; bit 29: the kinds held are
    exactly three, pairwise three or more apart, none more than twice (a
    16 Orphans suit, its eyes allowed).
``dec_offset`` : (5**9 + 1,) int32 and ``dec_words`` : (K,) int64
    CSR list of the decompositions of each complete code, in LRC rules 9.13
    order; a word packs the eyes (bits 0-3: position + 1, 0 for none), the
    pongs (bits 4-12, one per position), the sheungs (bits 13-33, three bits of
    count per starting position 0-6), and for the scoring kernel the sheung
    starts present (bits 34-40), the number of sheungs (41-43) and of pongs
    (44-47).

The scoring kernels read :func:`kernel_tables`: the same, with ``suit_info``
and ``dec_offset`` also merged into one ``suit_entries`` table, so that a
suit's entry and its decompositions' offset come in one cache line.

The tables are cached as ``.npy`` files in the user cache folder
(``$FASTSCORE_CACHE``, else ``$XDG_CACHE_HOME/fastscore``, else
``~/.cache/fastscore``), named by :func:`table_digest`, a digest of the source
of this module (which holds the whole generator: the recursive decomposer, the
hints, the layout constants).  Any edit to it makes a new name, so the tables
are rebuilt on first use, never loaded stale.  Files of other digests can be
deleted at any time; ``python scripts/build_tables.py`` removes them and
rebuilds.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

from ._cache import first_run_notice, user_cache_dir
from ._jit import jit

N_CODES = 5**9
POW5 = np.array([5**i for i in range(9)], dtype=np.int64)
#: The source files whose bytes key the table cache (:func:`table_digest`): the generator is this module.
GENERATOR_FILES = (Path(__file__),)
TABLE_NAMES = ("suit_info", "dec_offset", "dec_words")

EYES_SHIFT, PONG_SHIFT, SHEUNG_SHIFT = 0, 4, 13
STARTS_SHIFT, N_SHEUNGS_SHIFT, N_PONGS_SHIFT = 34, 41, 44
COMPLETE_SETS, COMPLETE_EYES = 1, 2
WAIT_SETS_SHIFT, WAIT_EYES_SHIFT = 2, 11
ONES_SHIFT, THREES_SHIFT = 20, 24
HAS_ONE, HAS_NINE, ORPHAN_SUIT = 1 << 27, 1 << 28, 1 << 29


@jit
def _decode(code, counts):
    n = 0
    for i in range(9):
        counts[i] = code % 5
        code //= 5
        n += counts[i]
    return n


@jit
def decompose_suit(counts, want_eyes, words, start):
    """Recursive decomposer of one suit's 9 counts into sets (and one eyes if ``want_eyes``).

    Writes packed words from ``words[start]`` in 9.13 order (at each lowest
    tile: eyes before pong before sheungs) and returns how many.  This is the
    table builder and the test oracle; it is never on the hot path.
    """
    return _decompose_from(counts, 0, want_eyes, 0, words, start)


@jit
def _decompose_from(counts, i, eyes_left, word, words, start):
    while i < 9 and counts[i] == 0:
        i += 1
    if i == 9:
        if eyes_left:
            return 0
        words[start] = word
        return 1
    found = 0
    c = counts[i]
    for o in range(4):
        e = 1 if o < 2 else 0
        p = 1 if o % 2 == 0 else 0
        s = c - 2 * e - 3 * p
        if s < 0 or (e and not eyes_left):
            continue
        if s > 0 and (i > 6 or counts[i + 1] < s or counts[i + 2] < s):
            continue
        w = word
        if e:
            w |= (i + 1) << EYES_SHIFT
        if p:
            w |= 1 << (PONG_SHIFT + i)
        if s:
            w |= s << (SHEUNG_SHIFT + 3 * i)
        counts[i] = 0
        if s:
            counts[i + 1] -= s
            counts[i + 2] -= s
        found += _decompose_from(counts, i + 1, eyes_left - e, w, words, start + found)
        counts[i] = c
        if s:
            counts[i + 1] += s
            counts[i + 2] += s
    return found


@jit
def _annotate(word):
    """Add the sheung-start mask and the sheung and pong counts to a packed word."""
    starts = 0
    n_sheungs = 0
    n_pongs = 0
    for i in range(7):
        c = (word >> (SHEUNG_SHIFT + 3 * i)) & 7
        if c:
            starts |= 1 << i
            n_sheungs += c
    for i in range(9):
        n_pongs += (word >> (PONG_SHIFT + i)) & 1
    return word | (starts << STARTS_SHIFT) | (n_sheungs << N_SHEUNGS_SHIFT) | (n_pongs << N_PONGS_SHIFT)


def word_groups(word: int, base: int) -> list[tuple[str, int]]:
    """The groups of one packed decomposition word of the suit starting at tile ``base``.

    Returns ``(kind, tile)`` pairs, kind ``"eyes"``, ``"pong"`` or ``"sheung"``,
    in 9.13 order within the suit.
    """
    groups = []
    eyes = (word >> EYES_SHIFT) & 15
    for i in range(9):
        if eyes == i + 1:
            groups.append(("eyes", base + i))
        if (word >> (PONG_SHIFT + i)) & 1:
            groups.append(("pong", base + i))
        if i < 7:
            groups += [("sheung", base + i)] * ((word >> (SHEUNG_SHIFT + 3 * i)) & 7)
    return groups


@jit
def _hints(counts):
    """Bits 20-29 of ``suit_info`` for one suit's 9 counts (see the module docstring)."""
    ones = 0
    threes = 0
    kinds = 0
    spaced = True
    last = -3
    for i in range(9):
        c = counts[i]
        if c == 1:
            ones += 1
        elif c == 3:
            threes += 1
        if c:
            kinds += 1
            if c > 2 or i - last < 3:
                spaced = False
            last = i
    bits = (ones << ONES_SHIFT) | (threes << THREES_SHIFT)
    if counts[0]:
        bits |= HAS_ONE
    if counts[8]:
        bits |= HAS_NINE
    if spaced and kinds == 3:
        bits |= ORPHAN_SUIT
    return bits


@jit
def _build(info, offset, words):
    counts = np.zeros(9, dtype=np.int64)
    scratch = np.zeros(16, dtype=np.int64)
    n_words = 0
    for code in range(N_CODES):
        offset[code] = n_words
        n = _decode(code, counts)
        if n > 17:
            continue
        r = n % 3
        if r == 1:
            continue
        k = decompose_suit(counts, 1 if r == 2 else 0, scratch, 0)
        if k:
            info[code] |= COMPLETE_EYES if r == 2 else COMPLETE_SETS
            for j in range(k):
                words[n_words + j] = _annotate(scratch[j])
            n_words += k
    offset[N_CODES] = n_words
    # Hints for the special shapes (codes of at most 17 tiles, as above).
    for code in range(N_CODES):
        if _decode(code, counts) <= 17:
            info[code] |= _hints(counts)
    # Wait masks: which added tile completes the code.
    p = 1
    for i in range(9):
        for code in range(N_CODES):
            if (code // p) % 5 < 4:
                bits = info[code + p] & 3
                if bits & COMPLETE_SETS:
                    info[code] |= 1 << (WAIT_SETS_SHIFT + i)
                if bits & COMPLETE_EYES:
                    info[code] |= 1 << (WAIT_EYES_SHIFT + i)
        p *= 5
    return n_words


def build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Build ``(suit_info, dec_offset, dec_words)`` from scratch (about a second after JIT)."""
    info = np.zeros(N_CODES, dtype=np.uint32)
    offset = np.zeros(N_CODES + 1, dtype=np.int32)
    words = np.zeros(200_000, dtype=np.int64)
    n = _build(info, offset, words)
    return info, offset, words[:n].copy()


def cache_dir() -> Path:
    """Where the tables are cached (:func:`fastscore._cache.user_cache_dir`)."""
    return user_cache_dir()


def table_digest(files=None) -> str:
    """16 hex digits of a SHA-256 over the generator's source (:data:`GENERATOR_FILES`, or ``files``):
    each file's name and bytes, in order."""
    h = hashlib.sha256()
    for path in GENERATOR_FILES if files is None else files:
        path = Path(path)
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _paths() -> dict[str, Path]:
    """The cache file of each table: ``<name>-<table_digest>.npy`` in :func:`cache_dir`."""
    d = cache_dir()
    digest = table_digest()
    return {name: d / f"{name}-{digest}.npy" for name in TABLE_NAMES}


def _huge_page_empty(n: int, dtype) -> np.ndarray:
    """An uninitialised (n,) array starting on a 2 MiB boundary.

    The kernels read the big tables at random; numpy asks the kernel for
    transparent huge pages on large arrays, but only whole aligned 2 MiB
    pages can be huge, so an aligned table is covered by them from its
    first byte (fewer TLB misses).
    """
    page = 2 << 20
    nbytes = n * np.dtype(dtype).itemsize
    buffer = np.empty(nbytes + page, dtype=np.uint8)
    start = -buffer.ctypes.data % page
    return buffer[start : start + nbytes].view(dtype)


#: ``suit_entries`` bits: the code's ``suit_info`` below, its ``dec_offset`` from bit 32.
ENTRY_OFFSET_SHIFT = 32
ENTRY_INFO_MASK = (1 << ENTRY_OFFSET_SHIFT) - 1


@lru_cache(maxsize=1)
def kernel_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tables as the kernels take them, made from :func:`suit_tables` once per process.

    Returns
    -------
    (suit_info (5**9,) uint32, suit_entries (5**9 + 1,) int64, dec_words (K,) int64)
        ``suit_entries[c]`` is ``suit_info[c] | dec_offset[c] << 32`` (``suit_info``
        0 past the last code): code ``c``'s decompositions are ``dec_words[e >> 32 :
        suit_entries[c + 1] >> 32]``.  The two big tables start on 2 MiB boundaries.
    """
    notice = first_run_notice()  # once a process (this function runs once): the first use compiles
    if notice:
        logging.getLogger("fastscore").warning("fastscore: %s", notice)
    info, offset, words = suit_tables()
    # Written in place, without temporaries: at start-up each fresh megabyte costs page faults.
    entries = _huge_page_empty(N_CODES + 1, np.int64)
    np.left_shift(offset, ENTRY_OFFSET_SHIFT, out=entries, dtype=np.int64)
    entries[:N_CODES] |= info
    aligned_info = _huge_page_empty(N_CODES, info.dtype)
    aligned_info[:] = info
    return aligned_info, entries, words


#: Codes per word of :func:`completeness_bits` (two bits each).
CODES_PER_WORD = 32


@lru_cache(maxsize=1)
def completeness_bits() -> np.ndarray:
    """``suit_info``'s bits 0 and 1 (complete as sets; complete as sets and eyes) of every code, two bits
    a code, 32 codes to a word: code ``c`` at bits ``2 * (c % 32)`` of word ``c // 32``.

    At 488 KB it stays in a core's L2 cache, where ``suit_info`` (7.8 MB) does
    not: the batch win check reads it instead of ``suit_info``
    (:func:`fastscore.kernels.decompose.is_win_row_bits`; PERF.md, "The design
    that gets there", 2).  Made from :func:`kernel_tables` once per process.

    Returns
    -------
    (ceil(5**9 / 32),) uint64, starting on a 2 MiB boundary
    """
    info = kernel_tables()[0]
    n_words = -(-N_CODES // CODES_PER_WORD)
    two = np.zeros(n_words * CODES_PER_WORD, dtype=np.uint64)
    np.bitwise_and(info, 3, out=two[:N_CODES], casting="unsafe")
    two = two.reshape(n_words, CODES_PER_WORD)
    two <<= (2 * np.arange(CODES_PER_WORD, dtype=np.uint64))
    bits = _huge_page_empty(n_words, np.uint64)
    np.bitwise_or.reduce(two, axis=1, out=bits)
    return bits


def suit_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The per-suit tables, loaded from the cache or built (and cached) on first use.

    Read afresh at each call and not kept: the process keeps :func:`kernel_tables`,
    made from them once (keeping these too held another 16 MB per process).

    Returns
    -------
    (suit_info (5**9,) uint32, dec_offset (5**9 + 1,) int32, dec_words (K,) int64)
    """
    return load_or_build(_paths(), build_tables, "suit tables")


def load_or_build(paths: dict[str, Path], build, what: str) -> tuple[np.ndarray, ...]:
    """The arrays cached at ``paths`` (name to ``.npy`` file, in order), or, when one is missing or
    unreadable, ``build()``'s (a tuple in that order), saved there (atomically: a temporary file then a
    rename) with one line on stderr naming ``what`` was built and how long it took.  A cache that
    cannot be written is said on stderr and the built arrays are returned all the same."""
    try:
        return tuple(np.load(path) for path in paths.values())
    except (OSError, ValueError):
        pass
    start = time.perf_counter()
    tables = build()
    folder = next(iter(paths.values())).parent
    try:
        for path, array in zip(paths.values(), tables):
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(tmp, array)
            os.replace(tmp, path)
    except OSError as exc:
        print(f"fastscore: could not cache {what} in {folder}: {exc}", file=sys.stderr)
    else:
        print(f"fastscore: built {what} in {time.perf_counter() - start:.1f} s, cached in {folder}", file=sys.stderr)
    return tables


def rebuild() -> str:
    """Rebuild the cached tables from scratch (removing those of every digest in :func:`cache_dir`);
    return a one-line summary with the PERF.md self-check counts."""
    kernel_tables.cache_clear()  # made from the old tables
    for name in TABLE_NAMES:
        for p in cache_dir().glob(f"{name}-*.npy"):
            p.unlink(missing_ok=True)
    info, offset, words = suit_tables()
    complete = int(((info & 3) != 0).sum())
    return (f"{complete} complete suit shapes, {words.size} decompositions, "
            f"most for one shape {int(np.diff(offset).max())}; cached in {cache_dir()}")
