"""Hand records straight from Arrow columns, parsed in compiled code (RULES.md sections 2, 8, 9.15).

:func:`batch_from_arrow` turns a pyarrow Table or RecordBatch of hand records
into a validated :class:`~fastscore.HandBatch` without a Python call per row.
Numba kernels read the notation strings from the Arrow buffers themselves
(validity bitmap, int32 or int64 offsets, UTF-8 bytes), in parallel over
blocks of rows, and mirror :mod:`fastscore.tiles` token by token: the same
grammar, the same checks in the same order, the same error codes.

Exactly the same result as the Python path, by construction:

* A row the kernels accept holds the values :func:`fastscore.batch.parse_record`
  gives (the tests compare every column on random and valid hands).
* A row the kernels flag, and a row they cannot decide (non-ASCII text, where
  Python's Unicode white space and case rules apply, or a streak such as
  ``"+3"`` or ``"1_0"`` that ``int()`` reads), is parsed again by
  :meth:`HandBatch.from_records`: its code and message are the slow path's own.
  Only these rows, rare in real files, touch Python.
* :func:`fastscore.batch.validate` flags the rest: a compiled pass computes its
  row predicates (16 tiles, fifth copies, Closing with an exposed set, ranges)
  and ``validate`` itself runs on the rows they flag, so messages are its own.
  (``validate`` over a whole batch costs about 1 microsecond a row, which alone
  would halve the ``fastscore batch`` target of 2 million rows a second.)

The kernels never raise and never allocate per row.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_parallel, prange
from .batch import RECORD_KEYS, HandBatch, validate
from .tiles import MAX_DECLARED, N_KINDS, ErrorCode

__all__ = ["ARROW_SCHEMA", "batch_from_arrow"]

#: The input columns and the Arrow types accepted, as named in error messages.
ARROW_SCHEMA = (
    "hand (string, required, e.g. '11m99m77p11s9s EE RR 333p'), "
    "win (string tile such as '9s'; required for scoring), "
    "self_drawn (bool, or string true/false/1/0/yes/no, or integer 0/1), "
    "seat (string E/S/W/N or integer 0-3), round (string E/S/W/N or integer 0-3), "
    "flowers (string such as '1f5f', '15f' or '1f 5f'), "
    "streak (integer, whole float or string), "
    "closing (bool, or string true/false/1/0/yes/no, or integer 0/1); "
    "strings may be string, large_string, string_view or dictionary-encoded; "
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

# SetKind values (tiles.SetKind), as plain ints for the kernels.
_SHEUNG, _PONG, _GONG, _CONCEALED_GONG = 1, 2, 3, 4


# --------------------------------------------------------------------------- byte classes


@jit
def _is_space(c):
    """``str.isspace()`` on an ASCII byte: ``\\t \\n \\v \\f \\r``, ``\\x1c``-``\\x1f`` and space.

    Python's ``str.strip``/``str.split`` and the regex ``\\s`` use the same set.
    """
    return (9 <= c <= 13) or (28 <= c <= 32)


@jit
def _is_digit(c):
    return _D0 <= c <= _D9


@jit
def _is_bracket(c):
    return c == _LBRACK or c == _RBRACK or c == _LPAREN or c == _RPAREN


@jit
def _has_non_ascii(data, s, e):
    for p in range(s, e):
        if data[p] >= 128:
            return True
    return False


@jit
def _strip(data, s, e):
    """``str.strip()`` of the ASCII text ``data[s:e]``: the new ``(s, e)``."""
    while s < e and _is_space(int(data[s])):
        s += 1
    while e > s and _is_space(int(data[e - 1])):
        e -= 1
    return s, e


# --------------------------------------------------------------------------- hand notation


@jit
def _tiles(data, s, e, counts, add):
    """Tiles of one white-space-free group ``data[s:e]`` (``tiles._parse_tiles``).

    Adds them to ``counts`` when ``add``.  Returns ``(code, n, lowest,
    highest, sum)`` over the tiles read; ``code`` is BAD_TOKEN at the first
    fault, in the order the Python parser meets them.
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
                if add:
                    counts[t] += 1
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
        if add:
            counts[t] += 1
        n += 1
        lo = min(lo, t)
        hi = max(hi, t)
        total += t
        p += step
    if d0 >= 0:
        return _BAD_TOKEN, 0, 0, 0, 0  # digits with no suit letter
    return _OK, n, lo, hi, total


@jit
def _declared_set(data, s, e, counts):
    """The set ``data[s:e]``, brackets included (``tiles._declared_set``): ``(code, kind, tile)``."""
    a, b = _strip(data, s + 1, e - 1)
    n = 0
    lo = 0
    hi = 0
    total = 0
    if a < b:
        code, n, lo, hi, total = _tiles(data, a, b, counts, False)
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
def _hand(data, s, e, counts, declared):
    """Parse the hand ``data[s:e]`` (``tiles.parse_hand``) into ``counts`` and ``declared``.

    ``counts`` (34,) int64 and ``declared`` (5, 2) int8 must be zero.  Returns
    the code: DEFER for non-ASCII text, else the Python parser's code.
    """
    # The split check (tiles._SPLIT_GROUP) comes first: digits, white space, then a digit or suit letter.
    for p in range(s, e):
        c = int(data[p])
        if c >= 128:
            return DEFER
        if _is_digit(c) and p + 1 < e and _is_space(int(data[p + 1])):
            q = p + 2
            while q < e and _is_space(int(data[q])):
                q += 1
            if q < e:
                d = int(data[q])
                if _is_digit(d) or d == _M or d == _P or d == _S or d == _Z:
                    return _BAD_TOKEN
    n_declared = 0
    n_tiles = 0
    blank = True
    p = s
    while p < e:
        c = int(data[p])
        if _is_space(c):
            p += 1
            continue
        blank = False
        if c == _LBRACK or c == _LPAREN:
            close = _RBRACK if c == _LBRACK else _RPAREN
            q = p + 1
            while q < e and not _is_bracket(int(data[q])):
                q += 1
            if q == e or data[q] != close:
                return _BAD_TOKEN  # unbalanced or nested bracket
            code, kind, tile = _declared_set(data, p, q + 1, counts)
            if code != _OK:
                return code
            if n_declared < MAX_DECLARED:
                declared[n_declared, 0] = kind
                declared[n_declared, 1] = tile
            n_declared += 1
            p = q + 1
        elif c == _RBRACK or c == _RPAREN:
            return _BAD_TOKEN  # unbalanced bracket
        else:
            q = p
            while q < e and not _is_space(int(data[q])) and not _is_bracket(int(data[q])):
                q += 1
            code, n, lo, hi, total = _tiles(data, p, q, counts, True)
            if code != _OK:
                return code
            n_tiles += n
            p = q
    if blank:
        return _TILE_COUNT  # empty hand
    if n_declared > MAX_DECLARED:
        return _TILE_COUNT
    if n_tiles + 3 * n_declared != 16:
        return _TILE_COUNT
    return _OK


@jit
def _row_valid(valid, bit0, i):
    """Whether row ``i`` is not null (``valid`` empty: no nulls)."""
    if valid.shape[0] == 0:
        return True
    j = bit0 + i
    return (valid[j >> 3] >> (j & 7)) & 1 == 1


@jit_parallel
def _hands_kernel(data, offsets, valid, bit0, concealed, declared, code):
    """Parse N hands; fill ``concealed`` (N, 34) uint8 and ``declared`` (N, 5, 2) int8 of rows that parse."""
    n = code.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        counts = np.zeros(N_KINDS, dtype=np.int64)
        sets = np.zeros((MAX_DECLARED, 2), dtype=np.int8)
        for i in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            if not _row_valid(valid, bit0, i):
                code[i] = _BAD_TOKEN  # hand must be a string
                continue
            counts[:] = 0
            sets[:] = 0
            c = _hand(data, offsets[i], offsets[i + 1], counts, sets)
            code[i] = c
            if c == _OK:
                for t in range(N_KINDS):
                    concealed[i, t] = counts[t]
                for k in range(MAX_DECLARED):
                    declared[i, k, 0] = sets[k, 0]
                    declared[i, k, 1] = sets[k, 1]


# --------------------------------------------------------------------------- context columns


@jit_parallel
def _wins_kernel(data, offsets, valid, bit0, require_win, win, code):
    """Winning tiles (``parse_record`` and ``tiles.parse_tile``) into ``win`` (N,) int8."""
    n = code.shape[0]
    dummy = np.zeros(1, dtype=np.int64)
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        for i in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            s = offsets[i]
            e = offsets[i + 1]
            if not _row_valid(valid, bit0, i) or s == e:
                code[i] = WIN_MISSING if require_win else _OK
                continue
            if _has_non_ascii(data, s, e):
                code[i] = DEFER
                continue
            a, z = _strip(data, s, e)
            if z > a and data[z - 1] == _F:
                code[i] = _BAD_WIN  # a flower
                continue
            c, k, lo, hi, total = _tiles(data, a, z, dummy, False)
            if c != _OK or k != 1:
                code[i] = _BAD_WIN
                continue
            win[i] = lo
            code[i] = _OK


@jit_parallel
def _flowers_kernel(data, offsets, valid, bit0, flowers, code):
    """Flowers ``'1f5f'``, ``'15f'``, ``'1f 5f'`` (``tiles.parse_flowers``) into a bitmask (N,) uint8."""
    n = code.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        for i in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            s = offsets[i]
            e = offsets[i + 1]
            if not _row_valid(valid, bit0, i) or s == e:
                continue
            if _has_non_ascii(data, s, e):
                code[i] = DEFER
                continue
            mask = 0
            c = _OK
            p = s
            while p < e and c == _OK:
                if _is_space(int(data[p])):
                    p += 1
                    continue
                q = p
                while q < e and not _is_space(int(data[q])):
                    q += 1
                # The token data[p:q] must be ([0-9]+f)+ before its digits are read.
                if not _is_digit(int(data[p])) or data[q - 1] != _F:
                    c = _BAD_CONTEXT
                for r in range(p, q):
                    x = int(data[r])
                    if x == _F:
                        if data[r - 1] == _F:
                            c = _BAD_CONTEXT
                    elif not _is_digit(x):
                        c = _BAD_CONTEXT
                if c != _OK:
                    break
                for r in range(p, q):
                    x = int(data[r])
                    if x == _F:
                        continue
                    k = x - _D0
                    if not 1 <= k <= 8 or mask & (1 << (k - 1)):
                        c = _BAD_CONTEXT  # out of range or repeated
                        break
                    mask |= 1 << (k - 1)
                p = q
            code[i] = c
            if c == _OK:
                flowers[i] = mask


@jit_parallel
def _winds_kernel(data, offsets, valid, bit0, wind, code):
    """Seat or round ``'E' 'S' 'W' 'N'`` (``tiles.parse_wind``; null or empty is East) into (N,) uint8."""
    n = code.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        for i in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            s = offsets[i]
            e = offsets[i + 1]
            if not _row_valid(valid, bit0, i) or s == e:
                continue
            c = int(data[s])
            if e - s != 1:
                code[i] = _BAD_CONTEXT
            elif c == _E:
                wind[i] = 0
            elif c == _SOUTH:
                wind[i] = 1
            elif c == _WEST:
                wind[i] = 2
            elif c == _NORTH:
                wind[i] = 3
            else:
                code[i] = _BAD_CONTEXT


@jit
def _word(data, a, z, word):
    """Whether ``data[a:z]``, lower-cased (ASCII), equals ``word`` (bytes as a uint8 array)."""
    if z - a != word.shape[0]:
        return False
    for j in range(z - a):
        c = int(data[a + j])
        if 65 <= c <= 90:
            c += 32
        if c != word[j]:
            return False
    return True


@jit_parallel
def _flags_kernel(data, offsets, valid, bit0, words, flag, code):
    """Flags written as text (``batch._flag``): null or empty is False.

    ``words`` (6, 5) uint8 holds true, yes, 1, false, no, 0 (the first three
    mean True), zero-padded.
    """
    n = code.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        for i in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            s = offsets[i]
            e = offsets[i + 1]
            if not _row_valid(valid, bit0, i) or s == e:
                continue
            if _has_non_ascii(data, s, e):
                code[i] = DEFER  # Python's Unicode strip and lower decide
                continue
            a, z = _strip(data, s, e)
            c = _BAD_CONTEXT
            for w in range(words.shape[0]):
                length = 0
                while length < words.shape[1] and words[w, length] != 0:
                    length += 1
                if _word(data, a, z, words[w, :length]):
                    flag[i] = w < 3
                    c = _OK
                    break
            code[i] = c


@jit_parallel
def _streaks_kernel(data, offsets, valid, bit0, streak, code):
    """Streaks written as text (``batch._streak``): plain digits with optional white space.

    Anything else ``int()`` might read (a sign, ``_``, Unicode digits) is deferred.
    """
    n = code.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        for i in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            s = offsets[i]
            e = offsets[i + 1]
            if not _row_valid(valid, bit0, i) or s == e:
                continue
            # int() strips only \t \n \v \f \r and space of the ASCII set.
            a = s
            z = e
            while a < z and (9 <= data[a] <= 13 or data[a] == 32):
                a += 1
            while z > a and (9 <= data[z - 1] <= 13 or data[z - 1] == 32):
                z -= 1
            if a == z:
                code[i] = _BAD_CONTEXT if not _has_non_ascii(data, s, e) else DEFER
                continue
            value = 0
            c = _OK
            for p in range(a, z):
                x = int(data[p])
                if not _is_digit(x):
                    c = DEFER
                    break
                if value <= 1000:
                    value = value * 10 + x - _D0
            if c == _OK and value > 1000:
                c = _BAD_CONTEXT
            code[i] = c
            if c == _OK:
                streak[i] = value


# --------------------------------------------------------------------------- validate's predicates


@jit_parallel
def _suspect_kernel(concealed, declared, win, seat, round_wind, streak, closing, code, require_win, suspect):
    """Rows with ``code == 0`` that :func:`fastscore.batch.validate` would flag (its checks, row by row)."""
    n = code.shape[0]
    for b in prange((n + _BLOCK - 1) // _BLOCK):
        held = np.zeros(N_KINDS, dtype=np.int64)
        for i in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            if code[i] != _OK:
                continue
            bad = False
            w = int(win[i])
            if w < -1 or w >= N_KINDS or seat[i] > 3 or round_wind[i] > 3 or streak[i] < 0 or streak[i] > 1000:
                bad = True
            if require_win and w < 0:
                bad = True
            total = 0
            for t in range(N_KINDS):
                held[t] = concealed[i, t]
                total += held[t]
            exposed = False
            for k in range(MAX_DECLARED):
                kind = int(declared[i, k, 0])
                tile = int(declared[i, k, 1])
                if kind == 0:
                    continue
                total += 3
                if kind < 0 or kind > 4 or tile < 0 or tile >= N_KINDS:
                    bad = True
                    continue
                if kind == _SHEUNG:
                    if tile >= 27 or tile % 9 > 6:
                        bad = True
                        continue
                    held[tile] += 1
                    held[tile + 1] += 1
                    held[tile + 2] += 1
                elif kind == _PONG:
                    held[tile] += 3
                else:
                    held[tile] += 4
                if kind != _CONCEALED_GONG:
                    exposed = True
            if total != 16 or (closing[i] and exposed):
                bad = True
            if 0 <= w < N_KINDS:
                held[w] += 1
            for t in range(N_KINDS):
                if held[t] > 4:
                    bad = True
            suspect[i] = bad


# --------------------------------------------------------------------------- the wrapper


_FLAG_WORDS = np.zeros((6, 5), dtype=np.uint8)
for _j, _w in enumerate((b"true", b"yes", b"1", b"false", b"no", b"0")):
    _FLAG_WORDS[_j, : len(_w)] = np.frombuffer(_w, dtype=np.uint8)
_NO_NULLS = np.zeros(0, dtype=np.uint8)


def _schema_error(message: str) -> ValueError:
    return ValueError(f"{message}; expected columns: {ARROW_SCHEMA}")


def _type_kind(pa, typ) -> str | None:
    if pa.types.is_string(typ) or pa.types.is_large_string(typ):
        return "string"
    if getattr(pa.types, "is_string_view", lambda t: False)(typ):
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


def _string_buffers(pa, arr):
    """``(data, offsets, validity, bit offset)`` of a string array, as numpy views of its buffers."""
    n = len(arr)
    if pa.types.is_null(arr.type):
        return _NO_NULLS, np.zeros(n + 1, dtype=np.int32), np.zeros((n + 7) // 8, dtype=np.uint8), 0
    if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        arr = arr.cast(pa.large_string())  # string_view, dictionary-encoded
    validity, offsets_buf, data_buf = arr.buffers()
    dtype = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    offsets = np.frombuffer(offsets_buf, dtype=dtype)[arr.offset: arr.offset + n + 1]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None and data_buf.size else _NO_NULLS
    if validity is None or arr.null_count == 0:
        return data, offsets, _NO_NULLS, 0
    return data, offsets, np.frombuffer(validity, dtype=np.uint8), arr.offset


def _numeric(pa, column, kind):
    """Values of a bool/int/float column with nulls as 0, and the null mask."""
    import pyarrow.compute as pc

    is_null = column.is_null().to_numpy(zero_copy_only=False)
    fill = False if kind == "bool" else 0
    values = pc.fill_null(column, fill).to_numpy(zero_copy_only=False)
    return values, is_null


def batch_from_arrow(table_or_batch, *, require_win: bool = True) -> HandBatch:
    """Parse hand records held in Arrow columns into a validated batch, in compiled code.

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
        when null.  Other columns are ignored.  Chunked and sliced columns
        and string or large_string offsets are read in place.
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
    names = table.column_names
    if "hand" not in names:
        found = ", ".join(repr(c) for c in names) if names else "none"
        raise _schema_error(f"no 'hand' column (found {found})")
    # Without require_win the winning tile is ignored (parse_record: 16-tile hands for waits).
    present = [k for k in RECORD_KEYS if k in names and (require_win or k != "win")]
    kinds = {}
    for name in present:
        kind = _type_kind(pa, table.schema.field(name).type)
        if kind not in _ALLOWED[name]:
            raise _schema_error(f"column {name!r} has type {table.schema.field(name).type}")
        kinds[name] = kind
    table = table.select(present)
    n = table.num_rows
    if n == 0:
        return HandBatch.from_records([], require_win=require_win)

    batch = HandBatch.empty(n)
    codes = {name: np.zeros(n, dtype=np.uint8) for name in RECORD_KEYS}
    if "win" not in present and require_win:
        codes["win"][:] = WIN_MISSING

    # String columns: the kernels, chunk by chunk (chunks aligned across columns).
    strings = [k for k in present if kinds[k] in ("string", "null")]
    if strings:
        part = table.select(strings)
        if part.column(0).num_chunks > n // 4096 + 8:
            part = part.combine_chunks()  # many tiny chunks: one kernel call beats thousands
        start = 0
        for record_batch in part.to_batches():
            stop = start + record_batch.num_rows
            if stop == start:
                continue
            for name in strings:
                args = _string_buffers(pa, record_batch.column(name))
                code = codes[name][start:stop]
                if name == "hand":
                    _hands_kernel(*args, batch.concealed[start:stop], batch.declared[start:stop], code)
                elif name == "win":
                    _wins_kernel(*args, require_win, batch.win[start:stop], code)
                elif name == "flowers":
                    _flowers_kernel(*args, batch.flowers[start:stop], code)
                elif name in ("seat", "round"):
                    _winds_kernel(*args, getattr(batch, name)[start:stop], code)
                elif name in ("self_drawn", "closing"):
                    _flags_kernel(*args, _FLAG_WORDS, getattr(batch, name)[start:stop], code)
                else:
                    _streaks_kernel(*args, batch.streak[start:stop], code)
            start = stop

    # Numeric columns: numpy, whole columns.
    for name in present:
        kind = kinds[name]
        if kind not in ("bool", "int", "float"):
            continue
        values, is_null = _numeric(pa, table.column(name), kind)
        target = getattr(batch, name)
        if name in ("self_drawn", "closing"):
            ok = np.ones(n, dtype=bool) if kind == "bool" else (values == 0) | (values == 1)
        elif name in ("seat", "round"):
            ok = (values >= 0) & (values <= 3)  # bool columns are refused above
        elif kind == "float":
            with np.errstate(invalid="ignore"):
                ok = np.isfinite(values) & (values == np.floor(values)) & (values >= 0) & (values <= 1000)
        else:
            ok = (values >= 0) & (values <= 1000)
        ok |= is_null
        target[:] = np.where(ok & ~is_null, values, 0).astype(target.dtype)
        codes[name][~ok] = _BAD_CONTEXT

    # The first fault in parse_record's order.
    code = codes["hand"]
    for name in ("win", "flowers", "self_drawn", "seat", "round", "streak", "closing"):
        code = np.where(code == 0, codes[name], code)

    # Rows the kernels flag: the Python parser gives their values, code and message.
    missing_win = np.flatnonzero(code == WIN_MISSING)
    if missing_win.size:
        _reset_rows(batch, missing_win)
        batch.error[missing_win] = ErrorCode.BAD_WIN
        for i in missing_win.tolist():
            batch.messages[i] = f"row {i}: record has no winning tile 'win'"
    flagged = np.flatnonzero((code != 0) & (code != WIN_MISSING))
    if flagged.size:
        records = table.take(pa.array(flagged)).to_pylist()
        _copy_rows(batch, flagged, HandBatch.from_records(records, require_win=require_win))

    # validate, on the rows its predicates flag.
    suspect = np.zeros(n, dtype=np.bool_)
    _suspect_kernel(batch.concealed, batch.declared, batch.win, batch.seat, batch.round, batch.streak,
                    batch.closing, code, require_win, suspect)
    rows = np.flatnonzero(suspect)
    if rows.size:
        sub = batch.take(rows)
        validate(sub, require_win=require_win)
        _copy_rows(batch, rows, sub, columns=("error",))
    batch.messages = dict(sorted(batch.messages.items()))
    return batch


_COLUMNS = ("concealed", "declared", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing", "error")


def _reset_rows(batch: HandBatch, rows: np.ndarray) -> None:
    """Give ``rows`` the values of :meth:`HandBatch.empty` (what a row that fails to parse holds)."""
    empty = HandBatch.empty(1)
    for name in _COLUMNS:
        getattr(batch, name)[rows] = getattr(empty, name)[0]


def _copy_rows(batch: HandBatch, rows: np.ndarray, sub: HandBatch, columns=_COLUMNS) -> None:
    """Copy the rows of ``sub`` (row j is ``rows[j]``) into ``batch``, renumbering messages."""
    for name in columns:
        getattr(batch, name)[rows] = getattr(sub, name)
    for j, message in sub.messages.items():
        i = int(rows[j])
        prefix = f"row {j}: "
        batch.messages[i] = f"row {i}: {message[len(prefix):]}" if message.startswith(prefix) else message
