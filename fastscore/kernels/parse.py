"""The compiled notation parser: hand records read straight from Arrow buffers (LRC rules sections 2, 8, 9.15).

Two numba kernels (hands; the other fields) read the notation strings from
the Arrow buffers themselves (validity bitmap, int32 or int64 offsets, UTF-8
bytes; a dictionary-encoded column's values through its indices), in parallel
over blocks of rows, and mirror :mod:`fastscore.tiles` and
:func:`fastscore.records.parse_record`: the same grammar, the same faults in
the same order.  A row they flag, and a row they cannot decide (non-ASCII
text, where Python's Unicode white space and case rules apply, or a streak
such as ``"+3"`` or ``"1_0"`` that ``int()`` reads), is parsed again in
Python by :func:`fastscore.arrow.columns_from_arrow`, so its code and message
are the Python parser's own.  They only parse: the row checks (16 tiles,
fifth copies, ranges) are :mod:`fastscore.kernels.checks`'.

The kernels never raise and never allocate per row.  Their per-field helpers are
inlined (``jit_inline``): a compiled call that passes arrays costs more than
parsing a short field (the context kernel took 116 ns a row with them called,
62 ns inlined).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_inline, jit_parallel, prange
from ..tiles import MAX_DECLARED, N_KINDS, ErrorCode, SetKind

__all__ = ["WIN_MISSING", "DEFER", "PARALLEL_MIN_ROWS"]

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
    the 16-tile check; counts above 4 are the row checks' to flag).

    One left-to-right pass, one table look-up a byte (the hot loop), stopping
    at the first fault: every fault of a plain token is BAD_TOKEN, and a
    set's fault comes where the set stands, as in the Python parser.
    Returns the code.
    """
    n_tiles = 0
    n_declared = 0
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
                return _BAD_TOKEN  # suit letter with no digits
            base = byte_value[c]
            top = 7 if base == 27 else 9
            for q in range(d0, p):
                v = int(data[q]) - _D0
                if v == 0 or v > top:
                    return _BAD_TOKEN  # 0 (red five), 8z, 9z
                t = base + v - 1
                counts[t] += 1
            n_tiles += p - d0
            p += 1
            d0 = p
            continue
        if d0 != p:
            return _BAD_TOKEN  # digits with no suit letter
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
                return _BAD_TOKEN  # unbalanced or nested bracket
            code, kind, tile = _declared_set(data, p, q + 1)
            if code != _OK:
                return code
            if n_declared < MAX_DECLARED:
                declared[n_declared, 0] = kind
                declared[n_declared, 1] = tile
            n_declared += 1
            p = q + 1
            d0 = p
            continue
        return _BAD_TOKEN  # unknown letter, 'f', a closing bracket
    if d0 != p:
        return _BAD_TOKEN  # digits with no suit letter
    if n_tiles == 0 and n_declared == 0:
        return _TILE_COUNT  # empty hand (any other text has a tile, a set or a fault)
    if n_declared > MAX_DECLARED:
        return _TILE_COUNT
    if n_tiles + 3 * n_declared != 16:
        return _TILE_COUNT
    return _OK


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


def _hand_rows(data, offsets, valid, bit0, index, byte_class, byte_value, concealed, declared, code):
    """Parse N hands straight into ``concealed`` (N, 34) uint8 and ``declared`` (N, 5, 2) int8.

    ``data``, ``offsets``, ``valid``, ``bit0`` and ``index`` are the column's
    :func:`_string_buffers`: UTF-8 bytes, offsets, validity bitmap (empty: no
    nulls) starting at bit ``bit0``, and dictionary indices (empty: a plain column).
    ``code`` (N,) gets each row's code.  The outputs must be zero; a faulty row's are partial
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
            c = _hand_groups(data, s, e, concealed[i], declared[i], byte_class, byte_value)
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
