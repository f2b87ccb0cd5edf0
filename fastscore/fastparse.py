"""Hand records straight from Arrow columns, parsed in compiled code (RULES.md sections 2, 8, 9.15).

:func:`batch_from_arrow` turns a pyarrow Table or RecordBatch of hand records
into a :class:`~fastscore.HandBatch`, bad rows flagged, without a Python call per row.
Two numba kernels (hands; the other fields) read the notation strings from
the Arrow buffers themselves (validity bitmap, int32 or int64 offsets, UTF-8
bytes; a dictionary-encoded column's values through its indices), in parallel
over blocks of rows, and mirror :mod:`fastscore.tiles`
and :func:`fastscore.batch.parse_record`: the same grammar, the same checks
in the same order, the same error codes.

Exactly the same result as the Python path, by construction:

* A row the kernels accept holds the values :func:`fastscore.batch.parse_record`
  gives (the tests compare every column on random and valid hands).
* A row the kernels flag, and a row they cannot decide (non-ASCII text, where
  Python's Unicode white space and case rules apply, or a streak such as
  ``"+3"`` or ``"1_0"`` that ``int()`` reads), is parsed again by
  :meth:`HandBatch.from_records`: its code and message are the slow path's own.
  Only these rows, rare in real files, touch Python.
* :func:`fastscore.checks.check_batch` flags the rest, with the row checks
  that every kernel runs (16 tiles, fifth copies, Closing with an exposed
  set, ranges), and writes their messages.

The kernels never raise and never allocate per row.  Their per-field helpers are
inlined (``jit_inline``): a compiled call that passes arrays costs more than
parsing a short field (the context kernel took 116 ns a row with them called,
62 ns inlined).
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_inline, jit_parallel, prange
from .batch import COLUMN_NAMES, RECORD_KEYS, HandBatch, decoded_records, flag_rows
from .checks import check_batch
from .tiles import MAX_DECLARED, N_KINDS, ErrorCode, SetKind

__all__ = ["ARROW_SCHEMA", "batch_from_arrow", "batch_from_records"]

#: The input columns and the Arrow types accepted, as named in error messages.
ARROW_SCHEMA = (
    "hand (string, required, e.g. '11m99m77p11s9s EE RR 333p'), "
    "win (string tile such as '9s'; required for scoring), "
    "self_drawn (bool, or string true/false/1/0/yes/no, or integer 0/1), "
    "seat (string E/S/W/N or integer 0-3), round (string E/S/W/N or integer 0-3), "
    "flowers (string such as '1f5f', '15f' or '1f 5f'), "
    "streak (integer, whole float or string), "
    "closing (bool, or string true/false/1/0/yes/no, or integer 0/1); "
    "strings may be string, large_string, string_view, binary, large_binary or binary_view (UTF-8 bytes) "
    "or dictionary-encoded; "
    "a missing column takes its default; other columns are ignored"
)

# Column -> the kinds of Arrow type it may have ("null" is an all-null column).
_ALLOWED = {
    "hand": ("string", "null"),
    "win": ("string", "null"),
    "self_drawn": ("bool", "string", "int", "null"),
    "seat": ("string", "int", "null"),
    "round": ("string", "int", "null"),
    "flowers": ("string", "null"),
    "streak": ("int", "float", "string", "null"),
    "closing": ("bool", "string", "int", "null"),
}

# Kernel codes.  The values only say "flagged" (non-zero) or not: a flagged row
# takes its code and message from the Python parser, so these constants cannot
# go stale against ErrorCode (they are frozen into the compiled cache).
_OK = 0
_BAD_TOKEN = int(ErrorCode.BAD_TOKEN)
_BAD_SET = int(ErrorCode.BAD_SET)
_TILE_COUNT = int(ErrorCode.TILE_COUNT)
_BAD_WIN = int(ErrorCode.BAD_WIN)
_BAD_CONTEXT = int(ErrorCode.BAD_CONTEXT)
#: The winning tile is null or empty while required: message known, no re-parse.
WIN_MISSING = 254
#: The kernel cannot decide (non-ASCII text, an unusual number): Python decides.
DEFER = 255

_BLOCK = 2048  # rows per parallel work item

# Bytes (the kernels see UTF-8 bytes; every decision on a byte >= 128 is deferred).
_M, _P, _S, _Z, _F = ord("m"), ord("p"), ord("s"), ord("z"), ord("f")
_E, _SOUTH, _WEST, _NORTH, _G, _R, _H = ord("E"), ord("S"), ord("W"), ord("N"), ord("G"), ord("R"), ord("h")
_LBRACK, _RBRACK, _LPAREN, _RPAREN = ord("["), ord("]"), ord("("), ord(")")
_D0, _D9 = ord("0"), ord("9")

# SetKind values, as plain ints for the kernels.
_SHEUNG, _PONG, _GONG, _CONCEALED_GONG = (int(k) for k in tuple(SetKind)[1:])

# Byte classes of the hot loops, looked up in _BYTE_CLASS; _BYTE_VALUE holds a
# suit letter's first tile index and an honour letter's tile index, _BYTE_WIND
# a wind letter's wind (-1 for any other byte).  Look-ups, not branches: the
# rows of a file vary, and mispredicted branches are most of the cost.
_C_OTHER, _C_DIGIT, _C_SUIT, _C_HONOUR, _C_SPACE, _C_BRACKET = range(6)


def _byte_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    byte_class = np.full(256, _C_OTHER, dtype=np.uint8)
    byte_value = np.zeros(256, dtype=np.int8)
    byte_wind = np.full(256, -1, dtype=np.int8)
    for wind, letter in enumerate("ESWN"):
        byte_wind[ord(letter)] = wind
    byte_class[_D0:_D9 + 1] = _C_DIGIT
    for letter, base in zip("mpsz", (0, 9, 18, 27)):
        byte_class[ord(letter)] = _C_SUIT
        byte_value[ord(letter)] = base
    for letter, tile in zip("ESWNGR", (27, 28, 29, 30, 32, 33)):  # Wh: W followed by h
        byte_class[ord(letter)] = _C_HONOUR
        byte_value[ord(letter)] = tile
    for c in range(128):
        if chr(c).isspace():
            byte_class[c] = _C_SPACE
    for c in "[]()":
        byte_class[ord(c)] = _C_BRACKET
    return byte_class, byte_value, byte_wind


_BYTE_CLASS, _BYTE_VALUE, _BYTE_WIND = _byte_tables()


# --------------------------------------------------------------------------- byte helpers


@jit
def _is_space(c):
    """``str.isspace()`` on an ASCII byte: ``\\t \\n \\v \\f \\r``, ``\\x1c``-``\\x1f`` and space.

    Python's ``str.strip``/``str.split`` and the regex ``\\s`` use the same set.
    """
    return (9 <= c <= 13) or (28 <= c <= 32)


@jit
def _is_digit(c):
    return _D0 <= c <= _D9


@jit_inline
def _has_non_ascii(data, s, e):
    for p in range(s, e):
        if data[p] >= 128:
            return True
    return False


@jit_inline
def _strip(data, s, e):
    """``str.strip()`` of the ASCII text ``data[s:e]``: the new ``(s, e)``."""
    while s < e and _is_space(int(data[s])):
        s += 1
    while e > s and _is_space(int(data[e - 1])):
        e -= 1
    return s, e


# --------------------------------------------------------------------------- hand notation


@jit_inline
def _tiles(data, s, e):
    """Tiles of a set's inside or a winning tile, exactly ``data[s:e]`` (``tiles._parse_tiles``).

    Returns ``(code, n, lowest, highest, sum)`` over the tiles read; ``code``
    is BAD_TOKEN at the first fault, in the order the Python parser meets them.
    """
    n = 0
    lo = N_KINDS
    hi = -1
    total = 0
    d0 = -1  # first pending digit, -1 when none
    p = s
    while p < e:
        c = int(data[p])
        if _is_digit(c):
            if d0 < 0:
                d0 = p
            p += 1
            continue
        if c == _M or c == _P or c == _S or c == _Z:
            if d0 < 0:
                return _BAD_TOKEN, 0, 0, 0, 0  # suit letter with no digits
            base = 0 if c == _M else (9 if c == _P else (18 if c == _S else 27))
            for q in range(d0, p):
                k = int(data[q]) - _D0
                if c == _Z and not 1 <= k <= 7:
                    return _BAD_TOKEN, 0, 0, 0, 0  # 8z, 9z, 0z
                if k == 0:
                    return _BAD_TOKEN, 0, 0, 0, 0  # red five
                t = base + k - 1
                n += 1
                lo = min(lo, t)
                hi = max(hi, t)
                total += t
            d0 = -1
            p += 1
            continue
        if _is_space(c) or c == _F:
            return _BAD_TOKEN, 0, 0, 0, 0  # space inside a group; a flower in the hand
        step = 1
        if c == _WEST and p + 1 < e and data[p + 1] == _H:
            t = 31
            step = 2
        elif c == _E:
            t = 27
        elif c == _SOUTH:
            t = 28
        elif c == _WEST:
            t = 29
        elif c == _NORTH:
            t = 30
        elif c == _G:
            t = 32
        elif c == _R:
            t = 33
        else:
            return _BAD_TOKEN, 0, 0, 0, 0  # unknown letter
        if d0 >= 0:
            return _BAD_TOKEN, 0, 0, 0, 0  # digits before an honour letter
        n += 1
        lo = min(lo, t)
        hi = max(hi, t)
        total += t
        p += step
    if d0 >= 0:
        return _BAD_TOKEN, 0, 0, 0, 0  # digits with no suit letter
    return _OK, n, lo, hi, total


@jit_inline
def _declared_set(data, s, e):
    """The set ``data[s:e]``, brackets included (``tiles._declared_set``): ``(code, kind, tile)``."""
    a, b = _strip(data, s + 1, e - 1)
    n = 0
    lo = 0
    hi = 0
    total = 0
    if a < b:
        code, n, lo, hi, total = _tiles(data, a, b)
        if code != _OK:
            return code, 0, 0
    same = n > 0 and lo == hi
    if data[s] == _LPAREN:
        if n == 4 and same:
            return _OK, _CONCEALED_GONG, lo
        return _BAD_SET, 0, 0
    if n == 4 and same:
        return _OK, _GONG, lo
    if n == 3 and same:
        return _OK, _PONG, lo
    if n == 3 and lo < 27 and lo // 9 == hi // 9 and hi == lo + 2 and total - lo - hi == lo + 1:
        return _OK, _SHEUNG, lo
    return _BAD_SET, 0, 0


@jit
def _has_split(data, s, e):
    """``tiles._SPLIT_GROUP``: digits, white space, then a digit or suit letter (``12 3m``)."""
    for p in range(s, e - 1):
        if _is_digit(int(data[p])) and _is_space(int(data[p + 1])):
            q = p + 2
            while q < e and _is_space(int(data[q])):
                q += 1
            if q < e:
                d = int(data[q])
                if _is_digit(d) or d == _M or d == _P or d == _S or d == _Z:
                    return True
    return False


@jit_inline
def _hand_groups(data, s, e, counts, declared, byte_class, byte_value):
    """Parse the hand ``data[s:e]`` (``tiles.parse_hand`` after its split check; see :func:`_hand_fault`).

    ``counts`` (34,) and ``declared`` (5, 2) int8 must be zero; they are the
    output row itself (a count above 255 would wrap, but such a hand fails
    the 16-tile check, and ``over`` is set at the fifth copy).

    One left-to-right pass, one table look-up a byte (the hot loop), stopping
    at the first fault: every fault of a plain token is BAD_TOKEN, and a
    set's fault comes where the set stands, as in the Python parser.
    Returns ``(code, over)``, ``over`` whether a concealed count passed 4.
    """
    n_tiles = 0
    n_declared = 0
    over = False
    d0 = s  # pending digits are data[d0:p]
    p = s
    while p < e:
        c = data[p]
        k = byte_class[c]
        if k == _C_DIGIT:
            p += 1
            continue
        if k == _C_SUIT:
            if d0 == p:
                return _BAD_TOKEN, False  # suit letter with no digits
            base = byte_value[c]
            top = 7 if base == 27 else 9
            for q in range(d0, p):
                v = int(data[q]) - _D0
                if v == 0 or v > top:
                    return _BAD_TOKEN, False  # 0 (red five), 8z, 9z
                t = base + v - 1
                counts[t] += 1
                over |= counts[t] > 4
            n_tiles += p - d0
            p += 1
            d0 = p
            continue
        if d0 != p:
            return _BAD_TOKEN, False  # digits with no suit letter
        if k == _C_SPACE:
            p += 1
            d0 = p
            continue
        if k == _C_HONOUR:
            t = byte_value[c]
            if c == _WEST and p + 1 < e and data[p + 1] == _H:
                t = 31
                p += 1
            counts[t] += 1
            over |= counts[t] > 4
            n_tiles += 1
            p += 1
            d0 = p
            continue
        if c == _LBRACK or c == _LPAREN:
            close = _RBRACK if c == _LBRACK else _RPAREN
            q = p + 1
            while q < e and byte_class[data[q]] != _C_BRACKET:
                q += 1
            if q == e or data[q] != close:
                return _BAD_TOKEN, False  # unbalanced or nested bracket
            code, kind, tile = _declared_set(data, p, q + 1)
            if code != _OK:
                return code, False
            if n_declared < MAX_DECLARED:
                declared[n_declared, 0] = kind
                declared[n_declared, 1] = tile
            n_declared += 1
            p = q + 1
            d0 = p
            continue
        return _BAD_TOKEN, False  # unknown letter, 'f', a closing bracket
    if d0 != p:
        return _BAD_TOKEN, False  # digits with no suit letter
    if n_tiles == 0 and n_declared == 0:
        return _TILE_COUNT, False  # empty hand (any other text has a tile, a set or a fault)
    if n_declared > MAX_DECLARED:
        return _TILE_COUNT, False
    if n_tiles + 3 * n_declared != 16:
        return _TILE_COUNT, False
    return _OK, over


@jit
def _hand_fault(data, s, e, code):
    """The code of a hand that failed :func:`_hand_groups` with ``code``.

    The Python parser looks for a split group (``12 3m``) before anything
    else, and non-ASCII text follows Python's Unicode rules (DEFER).  Both
    always fail the group parse, so they are looked for only then.
    """
    if _has_non_ascii(data, s, e):
        return DEFER
    if _has_split(data, s, e):
        return _BAD_TOKEN
    return code


# --------------------------------------------------------------------------- context fields


@jit_inline
def _win(data, s, e, byte_class, byte_value):
    """A winning tile (``parse_record`` and ``tiles.parse_tile``) that is not empty: ``(code, tile)``."""
    if e - s == 2 and byte_class[data[s + 1]] == _C_SUIT:  # fast path: 5p, 7z
        v = int(data[s]) - _D0
        base = byte_value[data[s + 1]]
        if 1 <= v <= (7 if base == 27 else 9):
            return _OK, base + v - 1
    if e - s == 1 and byte_class[data[s]] == _C_HONOUR:  # fast path: E, R
        return _OK, byte_value[data[s]]
    if _has_non_ascii(data, s, e):
        return DEFER, -1
    a, z = _strip(data, s, e)
    if z > a and data[z - 1] == _F:
        return _BAD_WIN, -1  # a flower
    code, n, lo, hi, total = _tiles(data, a, z)
    if code != _OK or n != 1:
        return _BAD_WIN, -1
    return _OK, lo


@jit_inline
def _flowers(data, s, e):
    """Flowers ``'1f5f'``, ``'15f'``, ``'1f 5f'`` (``tiles.parse_flowers``): ``(code, bitmask)``."""
    if _has_non_ascii(data, s, e):
        return DEFER, 0
    mask = 0
    p = s
    while p < e:
        if _is_space(int(data[p])):
            p += 1
            continue
        q = p
        while q < e and not _is_space(int(data[q])):
            q += 1
        # The token data[p:q] must match ([0-9]+f)+ before its digits are read.
        if not _is_digit(int(data[p])) or data[q - 1] != _F:
            return _BAD_CONTEXT, 0
        for r in range(p + 1, q):
            x = int(data[r])
            if x == _F:
                if data[r - 1] == _F:
                    return _BAD_CONTEXT, 0
            elif not _is_digit(x):
                return _BAD_CONTEXT, 0
        for r in range(p, q):
            x = int(data[r])
            if x == _F:
                continue
            k = x - _D0
            if not 1 <= k <= 8 or mask & (1 << (k - 1)):
                return _BAD_CONTEXT, 0  # out of range or repeated
            mask |= 1 << (k - 1)
        p = q
    return _OK, mask


@jit_inline
def _wind(data, s, e, byte_wind):
    """Seat or round ``'E' 'S' 'W' 'N'`` (``tiles.parse_wind``, spaces around it ignored), not empty:
    ``(code, wind)``."""
    if _has_non_ascii(data, s, e):
        return DEFER, 0  # Python's Unicode strip decides
    s, e = _strip(data, s, e)
    w = byte_wind[data[s]] if e - s == 1 else -1
    if w < 0:
        return _BAD_CONTEXT, 0
    return _OK, w


@jit_inline
def _flag(data, s, e, words):
    """A flag written as text (``batch._flag``), not empty: ``(code, value)``.

    ``words`` (6, 5) uint8 holds true, yes, 1, false, no, 0 (the first three
    mean True), zero-padded.
    """
    if _has_non_ascii(data, s, e):
        return DEFER, False  # Python's Unicode strip and lower decide
    a, z = _strip(data, s, e)
    for w in range(words.shape[0]):
        length = 0
        while length < words.shape[1] and words[w, length] != 0:
            length += 1
        if z - a != length:
            continue
        same = True
        for j in range(length):
            c = int(data[a + j])
            if 65 <= c <= 90:
                c += 32  # ASCII lower()
            if c != words[w, j]:
                same = False
                break
        if same:
            return _OK, w < 3
    return _BAD_CONTEXT, False


@jit_inline
def _streak(data, s, e):
    """A streak written as text (``batch._streak``), not empty: ``(code, value)``.

    Plain ASCII digits with white space around; anything else ``int()`` might
    read (a sign, ``_``, Unicode digits) is deferred.
    """
    a = s
    z = e
    while a < z and (9 <= data[a] <= 13 or data[a] == 32):  # int() strips these, not \x1c-\x1f
        a += 1
    while z > a and (9 <= data[z - 1] <= 13 or data[z - 1] == 32):
        z -= 1
    if a == z:
        return _BAD_CONTEXT, 0
    value = 0
    for p in range(a, z):
        x = int(data[p])
        if not _is_digit(x):
            return DEFER, 0
        if value <= 1000:
            value = value * 10 + x - _D0
    if value > 1000:
        return _BAD_CONTEXT, 0
    return _OK, value


# --------------------------------------------------------------------------- the row kernel

# Columns, in RECORD_KEYS order.
_HAND, _WIN_COL, _SELF_DRAWN, _SEAT, _ROUND, _FLOWERS, _STREAK, _CLOSING = range(8)
#: parse_record reads the fields in this order; a row's code is its first fault.
_PARSE_ORDER = np.array([_HAND, _WIN_COL, _FLOWERS, _SELF_DRAWN, _SEAT, _ROUND, _STREAK, _CLOSING], dtype=np.int64)


@jit_inline
def _span(offsets, valid, bit0, index, i):
    """Bytes ``(start, end)`` of row ``i`` of a string column; ``(-1, -1)`` when null.

    ``valid`` is the validity bitmap, empty when the column has no nulls.
    ``index`` is empty for a plain column; for a dictionary-encoded one it holds
    the rows' indices and ``offsets`` are the dictionary's.
    """
    if valid.shape[0] > 0:
        bit = bit0 + i
        if (valid[bit >> 3] >> (bit & 7)) & 1 == 0:
            return -1, -1
    j = index[i] if index.shape[0] > 0 else i
    return offsets[j], offsets[j + 1]


def _hand_rows(data, offsets, valid, bit0, index, byte_class, byte_value, concealed, declared, code, over):
    """Parse N hands straight into ``concealed`` (N, 34) uint8 and ``declared`` (N, 5, 2) int8.

    ``data``, ``offsets``, ``valid``, ``bit0`` and ``index`` are the column's
    :func:`_string_buffers`: UTF-8 bytes, offsets, validity bitmap (empty: no
    nulls) starting at bit ``bit0``, and dictionary indices (empty: a plain column).
    ``code`` (N,) gets each row's code, ``over`` (N,) whether a concealed
    count passed 4.  The outputs must be zero; a faulty row's are partial
    (the Python parser rewrites them).  Compiled twice: :data:`_hands_parallel`
    and :data:`_hands_serial`.
    """
    n = code.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        for i in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            s, e = _span(offsets, valid, bit0, index, i)
            if s < 0:
                code[i] = _BAD_TOKEN  # hand must be a string
                continue
            c, over[i] = _hand_groups(data, s, e, concealed[i], declared[i], byte_class, byte_value)
            code[i] = c if c == _OK else _hand_fault(data, s, e, c)


def _context_rows(w_data, w_off, w_valid, w_index, sd_data, sd_off, sd_valid, sd_index, se_data, se_off, se_valid,
                  se_index, ro_data, ro_off, ro_valid, ro_index, f_data, f_off, f_valid, f_index, st_data, st_off,
                  st_valid, st_index, cl_data, cl_off, cl_valid, cl_index, meta, order,
                  words, byte_class, byte_value, byte_wind, require_win, concealed, declared, win, self_drawn, seat,
                  round_wind, flowers, streak, closing, codes, any_code, code):
    """The other fields of N rows, and each row's first fault.

    Each string column (RECORD_KEYS order, hand excepted) comes as four
    arrays: UTF-8 bytes, offsets (int32 or int64, one type for all), validity
    bitmap (empty: no nulls) and dictionary indices (N,) int64 (empty: a plain
    column; :func:`_string_buffers`); ``meta`` (8, 2) int64 gives per
    column whether it is read here (1: a string column) and its bitmap's bit
    offset.  Outputs are the :class:`HandBatch` columns.  ``codes`` (N, 8)
    uint8 holds the codes found already (the hand's, numeric columns') and
    receives the others (``any_code`` (N,) uint64 is the same memory, a row
    a word); ``code`` (N,) gets each row's first fault in ``order``.  A
    faulty row's outputs are partial; the row checks of a row that parsed
    are :func:`fastscore.checks.check_batch`'s, after parsing.  Compiled twice: :data:`_context_parallel`, :data:`_context_serial`.
    """
    n = code.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        for i in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            if meta[_WIN_COL, 0]:
                s, e = _span(w_off, w_valid, meta[_WIN_COL, 1], w_index, i)
                if s == e:  # null or empty
                    codes[i, _WIN_COL] = WIN_MISSING if require_win else _OK
                else:
                    c, x = _win(w_data, s, e, byte_class, byte_value)
                    codes[i, _WIN_COL] = c
                    win[i] = x
            if meta[_SELF_DRAWN, 0]:
                s, e = _span(sd_off, sd_valid, meta[_SELF_DRAWN, 1], sd_index, i)
                if s < e:
                    codes[i, _SELF_DRAWN], self_drawn[i] = _flag(sd_data, s, e, words)
            if meta[_SEAT, 0]:
                s, e = _span(se_off, se_valid, meta[_SEAT, 1], se_index, i)
                if s < e:
                    codes[i, _SEAT], seat[i] = _wind(se_data, s, e, byte_wind)
            if meta[_ROUND, 0]:
                s, e = _span(ro_off, ro_valid, meta[_ROUND, 1], ro_index, i)
                if s < e:
                    codes[i, _ROUND], round_wind[i] = _wind(ro_data, s, e, byte_wind)
            if meta[_FLOWERS, 0]:
                s, e = _span(f_off, f_valid, meta[_FLOWERS, 1], f_index, i)
                if s < e:
                    codes[i, _FLOWERS], flowers[i] = _flowers(f_data, s, e)
            if meta[_STREAK, 0]:
                s, e = _span(st_off, st_valid, meta[_STREAK, 1], st_index, i)
                if s < e:
                    codes[i, _STREAK], streak[i] = _streak(st_data, s, e)
            if meta[_CLOSING, 0]:
                s, e = _span(cl_off, cl_valid, meta[_CLOSING, 1], cl_index, i)
                if s < e:
                    codes[i, _CLOSING], closing[i] = _flag(cl_data, s, e, words)
            first = _OK
            if any_code[i] != 0:  # the row's 8 codes as one word
                for j in range(order.shape[0]):
                    if codes[i, order[j]] != _OK:
                        first = codes[i, order[j]]
                        break
            code[i] = first


_hands_parallel = jit_parallel(_hand_rows)
_hands_serial = jit(_hand_rows)
_context_parallel = jit_parallel(_context_rows)
_context_serial = jit(_context_rows)
#: Chunks smaller than this run on the serial kernels (no thread start-up).
PARALLEL_MIN_ROWS = 8 * _BLOCK


# --------------------------------------------------------------------------- the wrapper


_FLAG_WORDS = np.zeros((6, 5), dtype=np.uint8)
for _j, _w in enumerate((b"true", b"yes", b"1", b"false", b"no", b"0")):
    _FLAG_WORDS[_j, : len(_w)] = np.frombuffer(_w, dtype=np.uint8)


def _readonly(a: np.ndarray) -> np.ndarray:
    """A read-only view, so that every buffer has one numba type (one compiled kernel)."""
    a = a.view()
    a.flags.writeable = False
    return a


_NO_BYTES = _readonly(np.zeros(0, dtype=np.uint8))
_NO_OFF32 = _readonly(np.zeros(0, dtype=np.int32))
_NO_OFF64 = _readonly(np.zeros(0, dtype=np.int64))
_NO_INDEX = _readonly(np.zeros(0, dtype=np.int64))


def _schema_error(message: str) -> ValueError:
    return ValueError(f"{message}; expected columns: {ARROW_SCHEMA}")


def is_text_type(pa, typ) -> bool:
    """``typ`` is string, large_string, binary or large_binary: values and offsets in two buffers, as the
    kernels read them (a view type or a dictionary is not)."""
    return (pa.types.is_string(typ) or pa.types.is_large_string(typ) or pa.types.is_binary(typ)
            or pa.types.is_large_binary(typ))


def _type_test(pa, name: str, typ) -> bool:
    """``pa.types.<name>(typ)``, False where this pyarrow has no such test (the view types came in pyarrow 16)."""
    test = getattr(pa.types, name, None)
    return test is not None and test(typ)


def _is_view(pa, typ) -> bool:
    """string_view or binary_view."""
    return _type_test(pa, "is_string_view", typ) or _type_test(pa, "is_binary_view", typ)


def _is_bytes(pa, typ) -> bool:
    """binary, large_binary or binary_view: text as UTF-8 bytes, not checked by Arrow to be valid."""
    return pa.types.is_binary(typ) or pa.types.is_large_binary(typ) or _type_test(pa, "is_binary_view", typ)


def bytes_columns(pa, schema) -> list[str]:
    """Names of the text columns of ``schema`` stored as bytes: binary, large_binary or binary_view,
    plain or dictionary-encoded (their values read as Python ``bytes``)."""
    return [f.name for f in schema
            if _is_bytes(pa, f.type.value_type if pa.types.is_dictionary(f.type) else f.type)]


def _type_kind(pa, typ) -> str | None:
    if is_text_type(pa, typ) or _is_view(pa, typ):
        return "string"
    if pa.types.is_dictionary(typ):
        return "string" if _type_kind(pa, typ.value_type) == "string" else None
    if pa.types.is_null(typ):
        return "null"
    if pa.types.is_boolean(typ):
        return "bool"
    if pa.types.is_integer(typ):
        return "int"
    if pa.types.is_floating(typ):
        return "float"
    return None


def _as_table(pa, table_or_batch):
    if isinstance(table_or_batch, pa.RecordBatch):
        return pa.Table.from_batches([table_or_batch])
    if isinstance(table_or_batch, pa.Table):
        return table_or_batch
    raise TypeError(f"batch_from_arrow takes a pyarrow Table or RecordBatch, got {type(table_or_batch).__name__}")


def _large_strings(pa, arr):
    """``arr`` (a text type of :func:`_type_kind`, or a dictionary of one) as large_string, or as
    large_binary if it holds bytes (which need not be valid UTF-8).  The values of a dictionary are
    cast first: pyarrow cannot decode a dictionary of string_view."""
    if pa.types.is_dictionary(arr.type):
        values = _large_strings(pa, arr.dictionary)
        return pa.DictionaryArray.from_arrays(arr.indices, values).cast(values.type)
    return arr.cast(pa.large_binary() if _is_bytes(pa, arr.type) else pa.large_string())


def _string_buffers(pa, arr):
    """``(data, offsets, validity, bit offset, index)`` of a string array: numpy views of its buffers.

    Offsets are int32 (string, binary) or int64 (large_string, large_binary, and
    the view types, which are cast to them).  ``index`` is empty but for a dictionary-encoded array
    (as ``fastscore batch`` reads the short columns of a Parquet file): then
    it holds the rows' indices (N,) int64, and data and offsets are the
    dictionary's, so that the strings are not copied out row by row.
    """
    n = len(arr)
    if pa.types.is_null(arr.type):  # all null
        return _NO_BYTES, np.zeros(n + 1, dtype=np.int32), np.zeros((n + 7) // 8, np.uint8), 0, _NO_INDEX
    index = _NO_INDEX
    rows = None  # the array whose validity bitmap marks the null rows
    if pa.types.is_dictionary(arr.type):
        if arr.dictionary.null_count:  # a null value in the dictionary: the plain strings
            return _string_buffers(pa, _large_strings(pa, arr))
        rows, arr = arr.indices, arr.dictionary
        values = np.frombuffer(rows.buffers()[1], dtype=np.dtype(rows.type.to_pandas_dtype()))
        index = values[rows.offset: rows.offset + n].astype(np.int64)
    if not is_text_type(pa, arr.type):
        arr = _large_strings(pa, arr)
    if rows is None:
        rows = arr
    _, offsets_buf, data_buf = arr.buffers()
    dtype = np.int64 if pa.types.is_large_string(arr.type) or pa.types.is_large_binary(arr.type) else np.int32
    offsets = np.frombuffer(offsets_buf, dtype=dtype)[arr.offset: arr.offset + len(arr) + 1]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None and data_buf.size else _NO_BYTES
    validity = rows.buffers()[0]
    if validity is None or rows.null_count == 0:
        return data, offsets, _NO_BYTES, 0, index
    return data, offsets, np.frombuffer(validity, dtype=np.uint8), rows.offset, index


def _check_columns(pa, table, require_win: bool):
    """The columns read, each with its kind of type; raises ValueError on a bad schema."""
    names = table.column_names
    if "hand" not in names:
        found = ", ".join(repr(c) for c in names) if names else "none"
        raise _schema_error(f"no 'hand' column (found {found})")
    kinds = {}
    # Without require_win the winning tile is ignored (parse_record: 16-tile hands for waits).
    for name in RECORD_KEYS:
        if name not in names or (name == "win" and not require_win):
            continue
        typ = table.schema.field(name).type
        kind = _type_kind(pa, typ)
        if kind not in _ALLOWED[name]:
            raise _schema_error(f"column {name!r} has type {typ}")
        kinds[name] = kind
    return kinds


def _numeric_columns(pa, table, kinds, batch: HandBatch, codes: np.ndarray) -> None:
    """Bool, integer and float columns, vectorised: values into ``batch``, faults into ``codes``.

    A null reads as 0 (False), which is each field's default (``parse_record``).
    """
    import pyarrow.compute as pc

    for col, name in enumerate(RECORD_KEYS):
        kind = kinds.get(name)
        if kind not in ("bool", "int", "float"):
            continue
        column = table.column(name)
        if column.null_count:
            column = pc.fill_null(column, False if kind == "bool" else 0)
        values = column.to_numpy()
        target = getattr(batch, name)
        if kind == "bool":
            target[:] = values
            continue
        if name in ("self_drawn", "closing"):
            ok = (values == 0) | (values == 1)
        elif name in ("seat", "round"):
            ok = (values >= 0) & (values <= 3)  # bool seats are refused by the schema check
        elif kind == "float":
            with np.errstate(invalid="ignore"):
                ok = (values >= 0) & (values <= 1000) & (values == np.floor(values))  # NaN fails
        else:
            ok = (values >= 0) & (values <= 1000)
        if ok.all():
            target[:] = values
        else:
            target[:] = np.where(ok, values, 0)
            codes[~ok, col] = _BAD_CONTEXT


def _compiled_pass(pa, table, kinds, require_win: bool):
    """Run the row kernel over ``table``: ``(batch, codes (N, 8), code (N,))``.

    Rows with ``code != 0`` still need the Python parser; the others, the row
    checks (:func:`fastscore.checks.check_batch`).
    """
    n = table.num_rows
    batch = HandBatch.empty(n)
    codes = np.zeros((n, len(RECORD_KEYS)), dtype=np.uint8)
    code = np.zeros(n, dtype=np.uint8)
    if require_win and "win" not in kinds:
        codes[:, _WIN_COL] = WIN_MISSING
    _numeric_columns(pa, table, kinds, batch, codes)
    strings = [name for name in RECORD_KEYS if kinds.get(name) in ("string", "null")]
    part = table.select(strings)
    if part.column(0).num_chunks > n // 4096 + 8:
        # Many tiny chunks: one kernel call beats thousands.  Dictionaries decoded first: pyarrow
        # cannot unify chunk dictionaries that hold a null.
        part = _plain_strings(pa, part).combine_chunks()
    over = np.zeros(n, dtype=np.bool_)
    start = 0
    for chunk in part.to_batches():  # "hand" is always among them
        stop = start + chunk.num_rows
        if stop == start:
            continue
        rows = slice(start, stop)
        parallel = stop - start >= PARALLEL_MIN_ROWS
        buffers = {name: _string_buffers(pa, chunk.column(name)) for name in strings}
        data, offsets, valid, bit0, index = buffers.pop("hand")
        hand_code = np.zeros(stop - start, dtype=np.uint8)
        (_hands_parallel if parallel else _hands_serial)(
            _readonly(data), _readonly(offsets), _readonly(valid), bit0, _readonly(index), _BYTE_CLASS, _BYTE_VALUE,
            batch.concealed[rows], batch.declared[rows], hand_code, over[rows])
        codes[rows, _HAND] = hand_code
        # One offset type for all columns: two compiled kernels, not one per mix of string types.
        wide = any(b[1].dtype == np.int64 for b in buffers.values())
        no_offsets = _NO_OFF64 if wide else _NO_OFF32
        meta = np.zeros((len(RECORD_KEYS), 2), dtype=np.int64)
        args = []
        for col, name in enumerate(RECORD_KEYS[1:], start=1):
            if name in buffers:
                data, offsets, valid, bit0, index = buffers[name]
                meta[col] = (1, bit0)
                args += [_readonly(data), _readonly(offsets.astype(no_offsets.dtype, copy=False)), _readonly(valid),
                         _readonly(index)]
            else:
                args += [_NO_BYTES, no_offsets, _NO_BYTES, _NO_INDEX]
        (_context_parallel if parallel else _context_serial)(
            *args, meta, _PARSE_ORDER, _FLAG_WORDS, _BYTE_CLASS, _BYTE_VALUE, _BYTE_WIND, require_win,
            batch.concealed[rows], batch.declared[rows], batch.win[rows], batch.self_drawn[rows], batch.seat[rows],
            batch.round[rows], batch.flowers[rows], batch.streak[rows], batch.closing[rows], codes[rows],
            codes[rows].view(np.uint64)[:, 0], code[rows])
        start = stop
    return batch, codes, code


def batch_from_arrow(table_or_batch, *, require_win: bool = True) -> HandBatch:
    """Parse hand records held in Arrow columns into a batch, bad rows flagged, in compiled code.

    The same result as ``HandBatch.from_records(table.to_pylist(), require_win=...)``,
    column for column, error code for error code, message for message, at
    millions of rows a second: see the module docstring.

    Parameters
    ----------
    table_or_batch : pyarrow.Table or pyarrow.RecordBatch
        Columns named as :data:`fastscore.RECORD_KEYS` (:data:`ARROW_SCHEMA`):
        ``hand`` (string) is required; ``win``, ``self_drawn``, ``seat``,
        ``round``, ``flowers``, ``streak`` and ``closing`` take the defaults
        of :func:`fastscore.batch.parse_record` when absent (not self-drawn,
        seat and round East, no flowers, streak 0, no Closing) and row by row
        when null.  Other columns are ignored.  Chunked and sliced columns,
        string or large_string offsets and dictionary-encoded string columns
        are read in place.  Binary columns are read as UTF-8 text: a row
        with bytes that are not UTF-8 reads each as U+FFFD (as
        :meth:`~fastscore.HandBatch.from_structured` decodes ``S`` fields),
        which flags it.
    require_win : bool
        Flag rows without a winning tile (True for scoring).  When False
        (waits analysis) the ``win`` column is ignored and every ``win`` is -1.

    Returns
    -------
    HandBatch
        One row per input row; bad rows flagged with an
        :class:`~fastscore.tiles.ErrorCode` and a message ``"row i: ..."``.

    Raises
    ------
    ValueError
        No ``hand`` column, or a column of a type not listed in :data:`ARROW_SCHEMA`
        (the message lists the expected columns).
    TypeError
        ``table_or_batch`` is not a pyarrow Table or RecordBatch.

    Examples
    --------
    >>> import pyarrow as pa
    >>> b = batch_from_arrow(pa.table({"hand": ["11m99m77p11s9s EE RR 333p", "12 3m"], "win": ["9s", "1m"]}))
    >>> b.error.tolist(), int(b.concealed[0, 27])
    ([0, 1], 2)
    """
    import pyarrow as pa

    table = _as_table(pa, table_or_batch)
    kinds = _check_columns(pa, table, require_win)
    table = table.select(list(kinds))
    if table.num_rows == 0:
        return HandBatch.from_records([], require_win=require_win)
    batch, _, code = _compiled_pass(pa, table, kinds, require_win)

    # Hand parsed, winning tile null or empty: parse_record's own message, without a re-parse.
    missing_win = np.flatnonzero(code == WIN_MISSING)
    if missing_win.size:
        _reset_rows(batch, missing_win)
        batch.error[missing_win] = ErrorCode.BAD_WIN
        for i in missing_win.tolist():
            batch.messages[i] = f"row {i}: record has no winning tile 'win'"
    # Other faults: the Python parser gives the row's values, code and message.
    flagged = np.flatnonzero((code != _OK) & (code != WIN_MISSING))
    if flagged.size:
        records = _plain_strings(pa, table).take(pa.array(flagged)).to_pylist()
        records = decoded_records(records, bytes_columns(pa, table.schema))
        _copy_rows(batch, flagged, HandBatch.from_records(records, require_win=require_win))
    batch.messages = dict(sorted(batch.messages.items()))
    return check_batch(batch, require_win=require_win)


def _plain_strings(pa, table):
    """``table`` with its view and dictionary columns cast to large_string (large_binary), chunk by
    chunk: pyarrow's ``take`` has no view kernel, nor unifies chunk dictionaries that hold a null."""
    columns = []
    for column in table.columns:
        typ = column.type
        if pa.types.is_dictionary(typ) or _is_view(pa, typ):
            chunks = [_large_strings(pa, chunk) for chunk in column.chunks]
            column = pa.chunked_array(chunks, chunks[0].type if chunks else pa.large_string())
        columns.append(column)
    return pa.Table.from_arrays(columns, names=table.column_names)


def _reset_rows(batch: HandBatch, rows: np.ndarray) -> None:
    """Give ``rows`` the values of :meth:`HandBatch.empty` (what a row that fails to parse holds)."""
    empty = HandBatch.empty(1)
    for name in COLUMN_NAMES:
        getattr(batch, name)[rows] = getattr(empty, name)[0]


def _copy_rows(batch: HandBatch, rows: np.ndarray, sub: HandBatch, columns=COLUMN_NAMES) -> None:
    """Copy the rows of ``sub`` (row j is ``rows[j]``) into ``batch``, renumbering messages."""
    for name in columns:
        getattr(batch, name)[rows] = getattr(sub, name)
    for j, message in sub.messages.items():
        i = int(rows[j])
        prefix = f"row {j}: "
        batch.messages[i] = f"row {i}: {message[len(prefix):]}" if message.startswith(prefix) else message


def batch_from_records(records, *, require_win: bool = True) -> HandBatch:
    """:meth:`HandBatch.from_records`, through the compiled parser when the records make an Arrow table.

    The records (dicts from JSON lines or CSV) become a pyarrow Table of their
    :data:`fastscore.RECORD_KEYS` (about 4 microseconds a row) parsed by
    :func:`batch_from_arrow`, which gives exactly ``from_records``' result.
    Records that do not make a table of the types :data:`ARROW_SCHEMA`
    accepts (a row that is not a dict, a column of mixed or other types,
    text as ``bytes``) go through :meth:`HandBatch.from_records` as they are.

    Returns
    -------
    HandBatch
        As ``HandBatch.from_records(records, require_win=require_win)``: the
        same columns, error codes and messages.
    """
    import pyarrow as pa

    if records and all(type(r) is dict for r in records):
        try:
            # Every key of RECORD_KEYS present in any record (from_pylist would take the first record's keys).
            table = pa.table({k: [r.get(k) for r in records] for k in RECORD_KEYS if any(k in r for r in records)})
            table = table.select(list(_check_columns(pa, table, require_win)))
        except (pa.ArrowException, ValueError, TypeError, OverflowError):
            pass
        else:
            if not bytes_columns(pa, table.schema):  # from_records takes no bytes for text: it flags them
                return _with_missing_hands(batch_from_arrow(table, require_win=require_win), records, require_win)
    return HandBatch.from_records(records, require_win=require_win)


def _with_missing_hands(batch: HandBatch, records, require_win: bool) -> HandBatch:
    """``batch`` with the records that have no 'hand' key flagged as :meth:`HandBatch.from_records`
    flags them (the table read them as null hands, whose message differs)."""
    missing = [i for i, r in enumerate(records) if "hand" not in r]
    if missing:
        slow = HandBatch.from_records([records[i] for i in missing], require_win=require_win)
        flag_rows(batch, missing, slow.error, [f"row {i}: {slow.messages[j].removeprefix(f'row {j}: ')}"
                                               for j, i in enumerate(missing)])
    return batch
