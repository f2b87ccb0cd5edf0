"""The shanten kernel: how many tile exchanges a 16- or 17-tile hand is from ready (LRC rules sections 2, 3, 7).

The distance of a hand to a shape is the fewest tiles it must draw to hold a
complete 17-tile hand of that shape, counting only target hands that keep
every kind at 4 copies or fewer with the declared sets (a kind held four
times cannot be drawn): ``min over complete T of sum(max(0, T[k] - c[k]))``
over the concealed counts ``c``.  The shanten is that distance less one:
0 for a 16-tile hand that is ready (it has waits, section 7), -1 for a
complete 17-tile hand; for a 17-tile hand it is the least shanten over its
discards.  One exchange (a discard, then a draw) changes the distance by at
most one, and some exchange lowers it while it is above one, so this is the
least number of exchanges to ready.

- standard (five sets and eyes, the declared sets fixed): per group (each
  number suit, the honours) the distances of every class (``m`` sets, ``e``
  eyes) come from :mod:`fastscore.shanten_tables`, or for a group holding
  declared tiles from :func:`capped_entry` (the table assumes 4 copies are
  free), then a min-plus combination over the groups (the batch kernel reads a
  hand without declared sets by class, the pairs of groups combined already:
  :func:`row_distances`);
- Nico Nico (seven pairs and a pong), 13 Orphans and 16 Orphans (no declared
  set at all): closed forms over the counts, exact (see each function).

A shape a hand cannot take (a special shape with a declared set) or that does
not win under the rule table (``win_shapes``, bit s for shape s:
:attr:`fastscore.rules.RuleTable.win_shapes_bits`) has :data:`NO_SHAPE`.  The
kernels assume valid input and allocate nothing, except :func:`capped_entry`
(a group with declared tiles).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_batch, jit_block, jit_inline, prange
from ..shanten_tables import DIST_BITS, DIST_MASK, ORPHAN_EYES_BIT, ORPHAN_GAIN_SHIFT
from ..tiles import N_KINDS, NO_SHAPE, SetKind
from .bits import BYTE_HIGHS, BYTE_ONES, ctpop64, gather_highs
from .checks import concealed_words, hand_fault, row_check_code
from .decompose import ALL_WIN_SHAPES, Shape, shape_wins, suit_code, word_code

__all__ = ["DP_STATES", "NOT_TAKEN", "NO_SHAPE", "capped_entry", "capped_entry_into", "class_distance", "combine",
           "entry_distances", "final_distance", "group_entry", "group_entries", "hand_distances", "held_histogram", "kind_masks",
           "load_counts", "make_shanten_scratch", "nico_distance", "nico_histogram_distance", "row_distances",
           "shanten_counts", "shanten_hand", "shanten_kernel", "sixteen_distance", "special_distances",
           "thirteen_distance"]

_SHEUNG = int(SetKind.SHEUNG)
_PONG = int(SetKind.PONG)
_BLOCK = 1024  # rows per parallel work item
#: The distance of a shape the hand cannot take or that does not win (its shanten reads :data:`NO_SHAPE`).
NOT_TAKEN = NO_SHAPE + 1
_ORPHANS_MASK = np.int64(sum(1 << t for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)))
#: Kinds where a sheung may start: 1-7 of each number suit.
_SHEUNG_STARTS = np.int64(sum(((1 << 7) - 1) << b for b in (0, 9, 18)))


#: Entries of one layer of :func:`capped_entry_into`'s dynamic programme: (5, 5, 6, 2) states, flattened.
DP_STATES = 5 * 5 * 6 * 2


@jit
def capped_entry(counts, caps, base, n_kinds, sheungs):
    """A distance table entry (:mod:`fastscore.shanten_tables` layout, bits 0-59) of one group worked
    out directly, each kind ``k`` at most ``caps[k]`` in the target (4 less the declared copies).

    counts, caps : (34,) ints; base : first kind of the group; n_kinds : 9 or 7; sheungs : bool.
    Allocates its scratch; the kernels call :func:`capped_entry_into`.
    """
    work = np.empty((3, DP_STATES), dtype=np.int64)
    for k in range(N_KINDS):
        work[0, k] = caps[k]
    return capped_entry_into(counts, work, base, n_kinds, sheungs)


@jit
def capped_entry_into(counts, work, base, n_kinds, sheungs):
    """:func:`capped_entry` with the caps in ``work[0, :34]`` and ``work`` (3, :data:`DP_STATES`) int64
    as scratch (rows 1 and 2: two layers of the programme).  A dynamic programme over the kinds: state
    (sheungs started one and two kinds back, sets, eyes), flattened as ``((a * 5 + b) * 6 + s) * 2 + e``."""
    far = 99
    cur = 1
    for j in range(DP_STATES):
        work[cur, j] = far
    work[cur, 0] = 0
    for i in range(n_kinds):
        nxt = 3 - cur
        for j in range(DP_STATES):
            work[nxt, j] = far
        c = np.int64(counts[base + i])
        cap = np.int64(work[0, base + i])
        x_max = 4 if sheungs and i <= n_kinds - 3 else 0
        for a in range(5):
            for b in range(5 - a):
                for s in range(6):
                    for e in range(2):
                        cost = work[cur, ((a * 5 + b) * 6 + s) * 2 + e]
                        if cost >= far:
                            continue
                        for x in range(x_max + 1):
                            for p in range(2):
                                for y in range(2 - e):
                                    t = a + b + x + 3 * p + 2 * y
                                    s2 = s + x + p
                                    if t > cap or s2 > 5:
                                        continue
                                    v = cost + max(0, t - c)
                                    j = ((x * 5 + a) * 6 + s2) * 2 + e + y
                                    if v < work[nxt, j]:
                                        work[nxt, j] = v
        cur = nxt
    entry = np.uint64(0)
    for s in range(6):
        for e in range(2):
            d = min(work[cur, s * 2 + e], DIST_MASK)
            entry |= np.uint64(d) << np.uint64(DIST_BITS * (2 * s + e))
    return entry


@jit_inline
def class_distance(entry, m, e):
    """Distance of class (``m`` sets, ``e`` eyes) in a table entry."""
    return np.int64((entry >> np.uint64(DIST_BITS * (2 * m + e))) & np.uint64(DIST_MASK))


@jit_inline
def combine(a, b):
    """Min-plus combination of two groups' entries (every class, saturating at 31; fixed loop bounds,
    unrolled by the compiler)."""
    out = np.uint64(0)
    for m in range(6):
        d0 = DIST_MASK
        d1 = DIST_MASK
        for m1 in range(m + 1):
            a0 = class_distance(a, m1, 0)
            a1 = class_distance(a, m1, 1)
            b0 = class_distance(b, m - m1, 0)
            b1 = class_distance(b, m - m1, 1)
            d0 = min(d0, a0 + b0)
            d1 = min(d1, a0 + b1, a1 + b0)
        out |= (np.uint64(min(d0, DIST_MASK)) << np.uint64(DIST_BITS * 2 * m)) \
            | (np.uint64(min(d1, DIST_MASK)) << np.uint64(DIST_BITS * (2 * m + 1)))
    return out


@jit_inline
def honour_code(counts):
    return (np.int64(counts[27]) + 5 * np.int64(counts[28]) + 25 * np.int64(counts[29])
            + 125 * np.int64(counts[30]) + 625 * np.int64(counts[31]) + 3125 * np.int64(counts[32])
            + 15625 * np.int64(counts[33]))


@jit_inline
def group_declared(declared_counts, base, n_kinds):
    """Some kind of the group has a declared copy."""
    any_held = 0
    for k in range(n_kinds):
        any_held |= np.int64(declared_counts[base + k])
    return any_held != 0


@jit_inline
def group_entry(counts, work, code, g, declared_group, number_table, honour_table):
    """The entry of group ``g`` (0-2 the number suits, 3 the honours) for ``counts``: from the tables by
    ``code`` (its base-5 code: :func:`fastscore.kernels.decompose.suit_code`, :func:`honour_code`), or,
    for a group holding declared tiles (``declared_group``), from :func:`capped_entry_into` with the caps
    in ``work[0, :34]``."""
    if declared_group:
        return capped_entry_into(counts, work, 9 * g, 9 if g < 3 else 7, g < 3)
    return number_table[code] if g < 3 else honour_table[code]


@jit_inline
def group_entries(counts, declared_counts, n_declared, number_table, honour_table, work):
    """The distance entries of the three number suits and the honours (:func:`group_entry`); ``work``
    the (3, :data:`DP_STATES`) int64 scratch of :func:`capped_entry_into`."""
    if n_declared == 0:
        e0 = number_table[suit_code(counts, 0)]
        e1 = number_table[suit_code(counts, 9)]
        e2 = number_table[suit_code(counts, 18)]
        eh = honour_table[honour_code(counts)]
    else:
        for k in range(N_KINDS):
            work[0, k] = 4 - np.int64(declared_counts[k])
        e0 = group_entry(counts, work, suit_code(counts, 0), 0, group_declared(declared_counts, 0, 9), number_table,
                         honour_table)
        e1 = group_entry(counts, work, suit_code(counts, 9), 1, group_declared(declared_counts, 9, 9), number_table,
                         honour_table)
        e2 = group_entry(counts, work, suit_code(counts, 18), 2, group_declared(declared_counts, 18, 9), number_table,
                         honour_table)
        eh = group_entry(counts, work, honour_code(counts), 3, group_declared(declared_counts, 27, 7), number_table,
                         honour_table)
    return e0, e1, e2, eh


@jit_inline
def final_distance(a, b, n_sets):
    """Distance of exactly ``n_sets`` sets and one eyes from two combined entries."""
    d = DIST_MASK
    for m in range(n_sets + 1):
        d = min(d, class_distance(a, m, 0) + class_distance(b, n_sets - m, 1),
                class_distance(a, m, 1) + class_distance(b, n_sets - m, 0))
    return d


@jit_inline
def nico_histogram_distance(n1, n2, n3, n4):
    """Distance to Nico Nico (seven pairs and a pong, four of a kind as two pairs), given how many
    kinds are held once, twice, three and four times.  The pong's kind is tried per count held (kinds
    held alike are alike); the pairs then take the best tiles: each kind gives pairs keeping 2, 2
    (held 4), 2, 1 (held 3), 2 (held 2) or 1 (held 1) tiles."""
    best = 0
    for h in range(5):
        c1 = n1 - (1 if h == 1 else 0)
        c2 = n2 - (1 if h == 2 else 0)
        c3 = n3 - (1 if h == 3 else 0)
        c4 = n4 - (1 if h == 4 else 0)
        if min(c1, c2, c3, c4) < 0:
            continue
        twos = min(7, 2 * c4 + c3 + c2)
        kept = min(h, 3) + 2 * twos + min(7 - twos, c3 + c1)
        best = max(best, kept)
    return 17 - best


@jit_inline
def _best_set_gain(m1, m2, m3, pong_ok):
    """Most tiles one set (a pong of a kind in ``pong_ok``, or a sheung) keeps, the kinds held
    (in what is left) once or more / twice or more / three times or more being ``m1``/``m2``/``m3``."""
    run3 = m1 & (m1 >> 1) & (m1 >> 2) & _SHEUNG_STARTS
    if run3 != 0 or (m3 & pong_ok) != 0:
        return 3
    run2 = ((m1 & (m1 >> 1)) | (m1 & (m1 >> 2)) | ((m1 >> 1) & (m1 >> 2))) & _SHEUNG_STARTS
    if run2 != 0 or (m2 & pong_ok) != 0:
        return 2
    return 1 if m1 != 0 else 0


@jit_inline
def _thirteen_distance(r1, r2, r3, r4, orphans_held):
    """Distance to 13 Orphans: one of each orphan kept (``orphans_held`` of the 13), then the eyes (one
    more orphan) and one set (sheung or pong) from what is left, whose kinds held once or more ... four
    times are the masks ``r1`` ... ``r4``.  A pong may not be of the eyes' kind (five copies).  With two
    or more orphans left over, some orphan not used by the best set gives the eyes; with one, either it
    gives the eyes (and the set is sought without that copy nor its pong) or it does not."""
    everything = (1 << N_KINDS) - 1
    left = r1 & _ORPHANS_MASK
    best = _best_set_gain(r1, r2, r3, everything)
    if left != 0 and (left & (left - 1)) != 0:
        best += 1
    elif left != 0:
        o = left
        # One copy of o taken for the eyes: the masks shifted down one count at o.
        s1 = (r1 & ~o) | (r2 & o)
        s2 = (r2 & ~o) | (r3 & o)
        s3 = (r3 & ~o) | (r4 & o)
        best = max(best, 1 + _best_set_gain(s1, s2, s3, everything & ~o))
    return 17 - orphans_held - best


@jit_inline
def hand_distances(counts, declared_counts, n_declared, number_table, honour_table, work, win_shapes):
    """(standard, Nico Nico, 13 Orphans, 16 Orphans) distances of a hand: the fewest tiles to draw to a
    complete 17-tile hand of that shape (module docstring), :data:`NO_SHAPE` + 1 for a shape the hand
    cannot take or that does not win (``win_shapes``, bit s for shape s).

    counts : (34,) ints, the concealed tiles (16 or 17 tiles with the declared sets);
    declared_counts : (34,) ints, the copies in declared sets; n_declared : the declared sets;
    number_table, honour_table : :func:`fastscore.shanten_tables.shanten_tables`; work : (3, :data:`DP_STATES`)
    int64 scratch.
    """
    e0, e1, e2, eh = group_entries(counts, declared_counts, n_declared, number_table, honour_table, work)
    return entry_distances(counts, n_declared, e0, e1, e2, eh, win_shapes)


@jit_inline
def entry_distances(counts, n_declared, e0, e1, e2, eh, win_shapes):
    """:func:`hand_distances` from the groups' entries (:func:`group_entries`) and the counts."""
    standard = final_distance(combine(e0, e1), combine(e2, eh), 5 - n_declared)
    if n_declared != 0 or win_shapes == 1:  # no special shape can win
        return standard, NOT_TAKEN, NOT_TAKEN, NOT_TAKEN
    m1, m2, m3, m4 = kind_masks(counts)
    nico, thirteen, sixteen = special_distances(m1, m2, m3, m4, e0, e1, e2, win_shapes)
    return standard, nico, thirteen, sixteen


@jit_inline
def kind_masks(counts):
    """The kinds held once or more ... four times or more, as four int64 bitmasks (bit t for kind t):
    one pass over the kinds, four compares each; every count the special shapes need is a popcount
    or a mask of these."""
    m1 = 0
    m2 = 0
    m3 = 0
    m4 = 0
    for t in range(N_KINDS):
        c = np.int64(counts[t])
        m1 |= np.int64(c >= 1) << t
        m2 |= np.int64(c >= 2) << t
        m3 |= np.int64(c >= 3) << t
        m4 |= np.int64(c >= 4) << t
    return m1, m2, m3, m4


@jit_inline
def special_distances(m1, m2, m3, m4, e0, e1, e2, win_shapes):
    """(Nico Nico, 13 Orphans, 16 Orphans) distances of a hand without declared sets, from the masks of
    the kinds it holds once or more ... four times or more (``m1``-``m4``, bit t for kind t) and its
    number suits' table entries ``e0``-``e2``; :data:`NO_SHAPE` + 1 for a shape that does not win
    (``win_shapes``)."""
    return (nico_distance(m1, m2, m3, m4) if shape_wins(win_shapes, Shape.NICO_NICO) else NOT_TAKEN,
            thirteen_distance(m1, m2, m3, m4) if shape_wins(win_shapes, Shape.THIRTEEN_ORPHANS) else NOT_TAKEN,
            sixteen_distance(m1, m2, e0, e1, e2) if shape_wins(win_shapes, Shape.SIXTEEN_ORPHANS) else NOT_TAKEN)


@jit_inline
def held_histogram(m1, m2, m3, m4):
    """How many kinds are held exactly once, twice, three and four times, from the masks of
    :func:`special_distances`."""
    p1 = ctpop64(m1)
    p2 = ctpop64(m2)
    p3 = ctpop64(m3)
    n4 = ctpop64(m4)
    return p1 - p2, p2 - p3, p3 - n4, n4


@jit_inline
def nico_distance(m1, m2, m3, m4):
    """Distance to Nico Nico from the masks of :func:`special_distances`."""
    n1, n2, n3, n4 = held_histogram(m1, m2, m3, m4)
    return nico_histogram_distance(n1, n2, n3, n4)


@jit_inline
def thirteen_distance(m1, m2, m3, m4):
    """Distance to 13 Orphans from the masks of :func:`special_distances`."""
    # One copy of each orphan held is its own; the rest ("r") serves the eyes and the set, so an orphan
    # counts in r_k when held k + 1 times or more.
    orphans = _ORPHANS_MASK
    orphans_held = ctpop64(m1 & orphans)
    r1 = (m1 & ~orphans) | (m2 & orphans)
    r2 = (m2 & ~orphans) | (m3 & orphans)
    r3 = (m3 & ~orphans) | (m4 & orphans)
    r4 = m4 & ~orphans
    return _thirteen_distance(r1, r2, r3, r4, orphans_held)


@jit_inline
def orphan_gain(entry):
    """The most tiles of one orphan sheung (1-2-3 ... 7-8-9 with a terminal: 1 2 3 or 7 8 9 ...) that a
    number suit's table entry holds, 0-3 (:data:`fastscore.shanten_tables.ORPHAN_GAIN_SHIFT`)."""
    return np.int64((np.uint64(entry) >> np.uint64(ORPHAN_GAIN_SHIFT)) & np.uint64(3))


@jit_inline
def orphan_eyes(entry):
    """1 when a best orphan sheung of a number suit's table entry holds a kind held twice or more
    (:data:`fastscore.shanten_tables.ORPHAN_EYES_BIT`), else 0."""
    return np.int64((np.uint64(entry) >> np.uint64(ORPHAN_EYES_BIT)) & np.uint64(1))


@jit_inline
def sixteen_distance(m1, m2, e0, e1, e2):
    """Distance to 16 Orphans from the masks of :func:`special_distances` (once and twice or more)
    and the number suits' table entries: an orphan sheung per suit (the table's best), the seven
    honours, and the eyes: one more of a tile among them, from an honour pair or a suit whose best
    orphan sheung holds a pair."""
    kept = ctpop64(m1 >> 27)
    eyes = np.int64((m2 >> 27) != 0)
    for entry in (e0, e1, e2):  # the suits' table entries (no declared set)
        kept += orphan_gain(entry)
        eyes |= orphan_eyes(entry)
    return 17 - kept - eyes


@jit_inline
def _bytes_at_least(w, k):
    """Bit j set where byte j of ``w`` (each at most 127) is ``k`` or more (an 8-bit int)."""
    return gather_highs((w + np.uint64(128 - k) * BYTE_ONES) & BYTE_HIGHS)


@jit_inline
def _kinds_at_least(w0, w1, w2, w3, w4, k):
    """Bit t set where kind t is held ``k`` times or more, the counts being the bytes of
    :func:`fastscore.kernels.checks.concealed_words`' five words."""
    return (_bytes_at_least(w0, k) | (_bytes_at_least(w1, k) << 8) | (_bytes_at_least(w2, k) << 16)
            | (_bytes_at_least(w3, k) << 24) | (_bytes_at_least(w4, k) << 32))


@jit_inline
def row_distances(concealed, i, win, classes, win_shapes):
    """:func:`hand_distances` of row ``i`` of ``concealed`` (N, 34) uint8, C-contiguous, a valid hand
    without declared sets, with tile ``win`` added (-1: none), by class: ``classes`` is
    :func:`fastscore.shanten_tables.class_tables`.  The counts are read as five words (eight kinds a
    word); each group's class id comes from its code, and the two pairs of groups' combined entries from
    the pair tables, so the standard distance is one final step."""
    number_ids, honour_ids, number_classes, number_pairs, honour_pairs = classes
    w0, w1, w2, w3, w4 = concealed_words(concealed, i)
    t = np.int64(win)
    word = t >> 3
    one = np.uint64(t >= 0) << np.uint64(8 * (t & 7))  # the winning tile's byte, added to its word
    w0 += one * np.uint64(word == 0)
    w1 += one * np.uint64(word == 1)
    w2 += one * np.uint64(word == 2)
    w3 += one * np.uint64(word == 3)
    w4 += one * np.uint64(word == 4)
    eight = np.uint64(8)
    # Kinds 0-8, 9-17, 18-26 and 27-33 as eight bytes and a ninth (w4 holds kinds 32 and 33 only).
    i0 = np.int64(number_ids[word_code(w0, w1 & np.uint64(255))])
    i1 = np.int64(number_ids[word_code((w1 >> eight) | (w2 << np.uint64(56)), (w2 >> eight) & np.uint64(255))])
    i2 = np.int64(number_ids[word_code((w2 >> np.uint64(16)) | (w3 << np.uint64(48)),
                                       (w3 >> np.uint64(16)) & np.uint64(255))])
    ih = np.int64(honour_ids[word_code((w3 >> np.uint64(24)) | (w4 << np.uint64(40)), 0)])
    standard = final_distance(number_pairs[i0, i1], honour_pairs[i2, ih], 5)
    if win_shapes == 1:  # no special shape can win
        return standard, NOT_TAKEN, NOT_TAKEN, NOT_TAKEN
    nico, thirteen, sixteen = special_distances(
        _kinds_at_least(w0, w1, w2, w3, w4, 1), _kinds_at_least(w0, w1, w2, w3, w4, 2),
        _kinds_at_least(w0, w1, w2, w3, w4, 3), _kinds_at_least(w0, w1, w2, w3, w4, 4),
        number_classes[i0], number_classes[i1], number_classes[i2], win_shapes)
    return standard, nico, thirteen, sixteen


@jit_inline
def shanten_counts(counts, declared_counts, n_declared, number_table, honour_table, work, win_shapes):
    """(best, standard, Nico Nico, 13 Orphans, 16 Orphans) shanten of a 16- or 17-tile hand: each
    distance of :func:`hand_distances` less one (0: ready, -1: complete), :data:`NO_SHAPE` for a
    shape the hand cannot take or that does not win (``win_shapes``); best is the least."""
    standard, nico, thirteen, sixteen = hand_distances(counts, declared_counts, n_declared, number_table,
                                                       honour_table, work, win_shapes)
    return shanten_of(standard, nico, thirteen, sixteen)


@jit_inline
def shanten_of(standard, nico, thirteen, sixteen):
    """(best, standard, Nico Nico, 13 Orphans, 16 Orphans) shanten from the four distances of
    :func:`hand_distances`: each less one; best is the least."""
    return min(standard, nico, thirteen, sixteen) - 1, standard - 1, nico - 1, thirteen - 1, sixteen - 1


@jit_inline
def load_counts(concealed, declared, win, i, counts, declared_counts):
    """Row ``i`` of ``concealed`` (N, 34) and ``declared`` (N, 5, 2) into ``counts`` (34,) int64 (the
    concealed tiles, with the winning tile ``win`` when it is 0-33: a 17-tile hand) and ``declared_counts`` (34,) int64 (the
    copies in its declared sets); returns the number of declared sets.  The row must be valid."""
    # Two loops, not one: a loop writing both vectors is not vectorised (they might overlap), and it
    # cost four times as much.
    for t in range(N_KINDS):
        counts[t] = concealed[i, t]
    for t in range(N_KINDS):
        declared_counts[t] = 0
    w = np.int64(win)
    if w >= 0:
        counts[w] += 1
    n_declared = 0
    for k in range(declared.shape[1]):
        kind = np.int64(declared[i, k, 0])
        t = np.int64(declared[i, k, 1])
        if kind == _SHEUNG:
            declared_counts[t] += 1
            declared_counts[t + 1] += 1
            declared_counts[t + 2] += 1
        elif kind == _PONG:
            declared_counts[t] += 3
        elif kind != 0:
            declared_counts[t] += 4
        n_declared += kind != 0
    return n_declared


def make_shanten_scratch():
    """Per-thread scratch of the shanten kernels: two (34,) int64 vectors and the (3, :data:`DP_STATES`)
    int64 scratch of :func:`capped_entry_into` (numba-callable)."""
    return np.zeros(N_KINDS, dtype=np.int64), np.zeros(N_KINDS, dtype=np.int64), np.zeros((3, DP_STATES), dtype=np.int64)


make_shanten_scratch = jit(make_shanten_scratch)


@jit_block
def shanten_hand(concealed, declared, win, number_table, honour_table, scratch, win_shapes=ALL_WIN_SHAPES):
    """Shanten of one hand: ``(code, best, standard, nico_nico, thirteen_orphans, sixteen_orphans)``.

    concealed : (34,) uint8, C-contiguous; declared : (5, 2) int8 (kind, tile); win : int, -1 for a
    16-tile hand, else the 17th tile (the draw); number_table, honour_table :
    :func:`fastscore.shanten_tables.shanten_tables`; scratch : :func:`make_shanten_scratch`'s;
    win_shapes : the shapes that win, bit s for shape s (:attr:`fastscore.rules.RuleTable.win_shapes_bits`;
    default 15, every shape).  ``code`` is 0, or nonzero for a hand that fails the row check (LRC rules
    section 2; nothing else is then meaningful).  Shanten as :func:`shanten_counts`.
    """
    rows = concealed.reshape((1, N_KINDS))
    decl = declared.reshape((1, declared.shape[0], 2))
    code = hand_fault(rows, decl, 0, win, 0, 0, 0, False, False)
    if code != 0:
        return code, NO_SHAPE, NO_SHAPE, NO_SHAPE, NO_SHAPE, NO_SHAPE
    counts, declared_counts, work = scratch
    n_declared = load_counts(rows, decl, win, 0, counts, declared_counts)
    best, standard, nico, thirteen, sixteen = shanten_counts(counts, declared_counts, n_declared, number_table,
                                                             honour_table, work, win_shapes)
    return 0, best, standard, nico, thirteen, sixteen


def _shanten_rows(concealed, declared, win, seat, round_wind, streak, closing, error, number_table, honour_table,
                  classes, win_shapes, out, codes):
    """Fill ``out`` (N, 5) int8 with each row's (best, standard, Nico Nico, 13 Orphans, 16 Orphans)
    shanten and ``codes`` (N,) uint8 with its row check (:data:`fastscore.kernels.checks.FLAGGED` for
    a bad row, whose shanten are :data:`NO_SHAPE`).  Rows already flagged in ``error`` keep their code.
    A row with a winning tile is a 17-tile hand (the tile drawn), one without (-1) a 16-tile hand.
    ``win_shapes``: the shapes that win, bit s for shape s (the others read :data:`NO_SHAPE`).
    ``classes``: :func:`fastscore.shanten_tables.class_tables`, for the rows without declared sets."""
    n = concealed.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        _shanten_block(concealed, declared, win, seat, round_wind, streak, closing, error, number_table,
                       honour_table, classes, win_shapes, out, codes, make_shanten_scratch(), b * _BLOCK,
                       min(n, (b + 1) * _BLOCK))


@jit_block
def _shanten_block(concealed, declared, win, seat, round_wind, streak, closing, error, number_table, honour_table,
                   classes, win_shapes, out, codes, scratch, lo, hi):
    """Rows ``lo`` to ``hi`` of :func:`_shanten_rows`."""
    counts, declared_counts, work = scratch
    for i in range(lo, hi):
        code = row_check_code(error, concealed, declared, win, seat, round_wind, streak, closing, False, i)
        codes[i] = code
        if code != 0:
            for j in range(5):
                out[i, j] = NO_SHAPE
            continue
        n_declared = 0
        for k in range(declared.shape[1]):
            n_declared += declared[i, k, 0] != 0
        if n_declared == 0:
            standard, nico, thirteen, sixteen = row_distances(concealed, i, win[i], classes, win_shapes)
            best, standard, nico, thirteen, sixteen = shanten_of(standard, nico, thirteen, sixteen)
        else:
            n_declared = load_counts(concealed, declared, win[i], i, counts, declared_counts)
            best, standard, nico, thirteen, sixteen = shanten_counts(counts, declared_counts, n_declared,
                                                                     number_table, honour_table, work, win_shapes)
        out[i, 0] = best
        out[i, 1] = standard
        out[i, 2] = nico
        out[i, 3] = thirteen
        out[i, 4] = sixteen


shanten_kernel = jit_batch(_shanten_rows)
