"""Per-suit tables against the PERF.md self-check counts and a plain recursive oracle."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fastscore.kernels.decompose import MAX_DECOMPOSITIONS
from fastscore.tables import (
    COMPLETE_EYES,
    COMPLETE_SETS,
    ENTRY_INFO_MASK,
    ENTRY_OFFSET_SHIFT,
    N_CODES,
    N_PONGS_SHIFT,
    N_SHEUNGS_SHIFT,
    STARTS_SHIFT,
    WAIT_EYES_SHIFT,
    WAIT_SETS_SHIFT,
    completeness_bits,
    kernel_tables,
    suit_tables,
    word_groups,
)

POW5 = 5 ** np.arange(9)


@pytest.fixture(scope="module")
def tables():
    return suit_tables()


def decode(code: int) -> list[int]:
    return [(code // 5**i) % 5 for i in range(9)]


def splits(counts: list[int], eyes: bool) -> list[tuple]:
    """Every split of one suit into sets (and one eyes), as sorted group tuples, in 9.13 order."""
    if not any(counts):
        return [()] if not eyes else []
    i = next(k for k, c in enumerate(counts) if c)
    out = []
    if eyes and counts[i] >= 2:
        rest = counts.copy()
        rest[i] -= 2
        out += [((i, i),) + s for s in splits(rest, False)]
    if counts[i] >= 3:
        rest = counts.copy()
        rest[i] -= 3
        out += [((i, i, i),) + s for s in splits(rest, eyes)]
    if i <= 6 and counts[i + 1] and counts[i + 2]:
        rest = counts.copy()
        for k in (i, i + 1, i + 2):
            rest[k] -= 1
        out += [((i, i + 1, i + 2),) + s for s in splits(rest, eyes)]
    # The same split can be reached in more than one order; keep each once, sorted.
    return sorted({tuple(sorted(s)) for s in out})


def unpack(word: int) -> tuple:
    """A packed word as sorted group tuples, like :func:`splits`."""
    shapes = {"eyes": lambda i: (i, i), "pong": lambda i: (i, i, i), "sheung": lambda i: (i, i + 1, i + 2)}
    return tuple(sorted(shapes[kind](i) for kind, i in word_groups(word, 0)))


def test_perf_self_check_counts(tables):
    info, offset, words = tables
    n_tiles = np.zeros(N_CODES, dtype=np.int64)
    for i in range(9):
        n_tiles += (np.arange(N_CODES) // 5**i) % 5
    assert int((n_tiles <= 17).sum()) == 886_400  # PERF.md: suit count vectors with at most 17 tiles
    complete = (info & (COMPLETE_SETS | COMPLETE_EYES)) != 0
    assert int(complete.sum()) == 53_055  # at most 5 sets + at most 1 pair, empty included
    assert int(((info & COMPLETE_SETS) != 0)[n_tiles <= 12].sum() + ((info & COMPLETE_EYES) != 0)[n_tiles <= 14].sum()) == 21_743
    assert words.size == 61_478
    assert int(np.diff(offset).max()) == 6


def test_tables_match_recursive_oracle(tables):
    info, offset, words = tables
    rng = np.random.default_rng(7)
    codes = list(range(0, 5**6)) + rng.integers(0, N_CODES, 20_000).tolist()
    for code in codes:
        counts = decode(code)
        n = sum(counts)
        want_sets = splits(counts, False) if n <= 17 and n % 3 == 0 else []
        want_eyes = splits(counts, True) if n <= 17 and n % 3 == 2 else []
        assert bool(info[code] & COMPLETE_SETS) == bool(want_sets), counts
        assert bool(info[code] & COMPLETE_EYES) == bool(want_eyes), counts
        got = [unpack(int(w)) for w in words[offset[code] : offset[code + 1]]]
        assert got == want_sets + want_eyes, counts  # same splits, same 9.13 order
        for w, groups in zip(words[offset[code] : offset[code + 1]], got):
            sheungs = [g for g in groups if len(g) == 3 and g[0] != g[1]]
            assert (int(w) >> N_SHEUNGS_SHIFT) & 7 == len(sheungs)
            assert (int(w) >> N_PONGS_SHIFT) & 15 == sum(1 for g in groups if len(g) == 3 and g[0] == g[1])
            assert (int(w) >> STARTS_SHIFT) & 127 == sum({1 << g[0] for g in sheungs})
        for i in range(9):
            if counts[i] < 4:
                after = info[code + 5**i]
                assert bool(info[code] >> (WAIT_SETS_SHIFT + i) & 1) == bool(after & COMPLETE_SETS)
                assert bool(info[code] >> (WAIT_EYES_SHIFT + i) & 1) == bool(after & COMPLETE_EYES)


def test_decomposition_buffer_is_large_enough(tables):
    """The most standard decompositions one 17-tile hand can have fits MAX_DECOMPOSITIONS."""
    info, offset, _ = tables
    n_tiles = np.zeros(N_CODES, dtype=np.int64)
    for i in range(9):
        n_tiles += (np.arange(N_CODES) // 5**i) % 5
    per_code = np.diff(offset)
    most = [int(per_code[n_tiles == n].max()) for n in range(18)]
    worst = max(most[a] * most[b] * most[17 - a - b] if 17 - a - b >= 0 else 0
                for a, b in itertools.product(range(18), repeat=2))
    assert worst <= MAX_DECOMPOSITIONS


def test_kernel_tables_merge_each_codes_info_and_offset(tables):
    """suit_entries[c] holds suit_info[c] and dec_offset[c] (the one past the last code: offset only);
    the two big tables start on 2 MiB boundaries (huge pages)."""
    info, offset, words = tables
    k_info, entries, k_words = kernel_tables()
    np.testing.assert_array_equal(k_info, info)
    np.testing.assert_array_equal(entries[:-1] & ENTRY_INFO_MASK, info)
    assert entries[-1] & ENTRY_INFO_MASK == 0
    np.testing.assert_array_equal(entries >> ENTRY_OFFSET_SHIFT, offset)
    np.testing.assert_array_equal(k_words, words)
    assert k_info.ctypes.data % (2 << 20) == 0 and entries.ctypes.data % (2 << 20) == 0


def test_completeness_bits_hold_each_codes_two_completeness_bits(tables):
    """Code c's bits 2(c % 32) and 2(c % 32) + 1 of word c // 32 are suit_info[c]'s bits 0 (complete as
    sets) and 1 (complete with eyes); the padding codes past 5**9 are 0; under 512 KB (L2-resident)."""
    info = tables[0]
    bits = completeness_bits()
    codes = np.arange(N_CODES)
    got = (bits[codes // 32] >> (2 * (codes % 32)).astype(np.uint64)) & np.uint64(3)
    np.testing.assert_array_equal(got, info & (COMPLETE_SETS | COMPLETE_EYES))
    assert COMPLETE_SETS == 1 and COMPLETE_EYES == 2
    assert bits[-1] >> np.uint64(2 * (N_CODES % 32)) == 0
    # 1, 2, 3 (a sheung), 5, 5 (eyes): code 1 + 5 + 25 + 2 * 625 = 1281, complete with eyes only.
    assert (bits[1281 // 32] >> np.uint64(2 * (1281 % 32))) & np.uint64(3) == 2
    assert bits.nbytes < 512 * 1024 and bits.ctypes.data % (2 << 20) == 0


def test_table_cache_is_keyed_on_the_generator_source(tmp_path, monkeypatch):
    """An edit to the generating code gives the tables a new cache path (rebuilt on first use, never
    loaded stale); the same source gives the same path."""
    from fastscore import tables

    monkeypatch.setenv("FASTSCORE_CACHE", str(tmp_path / "cache"))
    generator = tmp_path / "tables.py"
    generator.write_bytes(tables.GENERATOR_FILES[0].read_bytes())
    monkeypatch.setattr(tables, "GENERATOR_FILES", (generator,))
    before = tables._paths()
    assert before == tables._paths()
    assert before["suit_info"].name == f"suit_info-{tables.table_digest([generator])}.npy"
    assert tables.table_digest([generator]) == tables.table_digest([tables.__file__])  # same bytes, same key
    generator.write_text(generator.read_text() + "\n# an edit to the generator\n")
    after = tables._paths()
    assert set(before) == set(after) == set(tables.TABLE_NAMES)
    assert all(before[name] != after[name] and before[name].parent == after[name].parent for name in before)
