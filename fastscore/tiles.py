"""Tiles, hand notation and input validation (LRC rules sections 1, 2, 8, 9.15).

Tile index table (Tenhou order), used everywhere in fastscore:

=======  ===========================  ==========================
index    tiles                        notation
=======  ===========================  ==========================
0-8      characters 1-9               ``1m`` .. ``9m``
9-17     dots 1-9                     ``1p`` .. ``9p``
18-26    bamboo 1-9                   ``1s`` .. ``9s``
27-30    winds East South West North  ``1z``..``4z`` or ``E S W N``
31-33    dragons white green red      ``5z 6z 7z`` or ``Wh G R``
=======  ===========================  ==========================

A hand is a ``(34,) uint8`` count vector of its concealed tiles plus its
declared sets, each a ``(SetKind, tile)`` pair where ``tile`` is the index of
the set's lowest tile.  Flowers ``1f``..``8f`` are passed separately.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

__all__ = [
    "TILE_NAMES",
    "WINDS",
    "WIND_INDEX",
    "SetKind",
    "ErrorCode",
    "HandError",
    "ParsedHand",
    "parse_tile",
    "parse_hand",
    "parse_flowers",
    "parse_wind",
    "format_tile",
    "format_counts",
    "format_set",
]

N_KINDS = 34
TILE_NAMES = tuple(
    [f"{n}{suit}" for suit in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
)
HONOUR_LETTERS = ("E", "S", "W", "N", "Wh", "G", "R")
WINDS = "ESWN"
#: A wind letter -> its index (seat, round: 0-3).
WIND_INDEX = {w: i for i, w in enumerate(WINDS)}
MAX_DECLARED = 5
#: The shanten reported for a shape a hand cannot take (a special shape with a declared set, or one
#: the rule table does not count as a win) and for a flagged row: int8's largest value.
NO_SHAPE = 127


class SetKind(IntEnum):
    """Kind of a declared set (LRC rules section 2). ``NONE`` pads fixed-width arrays."""

    NONE = 0
    SHEUNG = 1  # exposed sheung
    PONG = 2  # exposed pong
    GONG = 3  # exposed gong (claimed or added)
    CONCEALED_GONG = 4  # declared from the hand


class ErrorCode(IntEnum):
    """Per-row error codes of batch results (0 means the row was scored)."""

    OK = 0
    BAD_TOKEN = 1  # unknown letter, digit without suit, bad tile, split group
    BAD_SET = 2  # bracketed set that is not a sheung, pong or gong
    TILE_COUNT = 3  # the hand does not hold 16 tiles
    FIFTH_COPY = 4  # a kind appears more than 4 times
    BAD_WIN = 5  # winning tile missing or not a tile
    BAD_CONTEXT = 6  # seat, round, flowers, streak or closing out of range
    BAD_ARRAY = 7  # counts array with bad values, shape or dtype


class HandError(ValueError):
    """Invalid input; ``code`` is an :class:`ErrorCode`, the message names the token."""

    def __init__(self, code: ErrorCode, message: str):
        super().__init__(message)
        self.code = ErrorCode(code)


@dataclass(frozen=True)
class ParsedHand:
    """The 16 tiles before the win.

    concealed : ndarray, shape (34,), uint8, concealed tile counts
    declared : tuple of (SetKind, tile) pairs, at most 5
    """

    concealed: np.ndarray
    declared: tuple

    @property
    def n_tiles(self) -> int:
        """Tiles held, a declared set counting 3 (LRC rules section 2)."""
        return int(self.concealed.sum()) + 3 * len(self.declared)


_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
_DIGITS = "0123456789"  # ASCII only: str.isdigit() also accepts '²' and '٣'
def _shown(value) -> str:
    """``repr(value)`` for a message, long texts cut to their first 60 characters (a bad
    row of a million characters must not print a million characters back)."""
    if isinstance(value, str) and len(value) > 80:
        return f"{value[:60]!r}... ({len(value):,} characters)"
    return repr(value)


_SPLIT_GROUP = re.compile(r"(?<![0-9])([0-9]+)\s+(?=[0-9mpsz])")  # from a run's start only: linear, not quadratic
_GROUP = re.compile(r"\s+|\[[^\[\]()]*\]|\([^\[\]()]*\)|[^\s\[\]()]+")


def parse_tile(text: str) -> int:
    """Return the index (0-33) of one tile written ``5p``, ``7z`` or ``Wh``.

    Raises
    ------
    HandError (a ValueError)
        If ``text`` is not exactly one tile.
    """
    stripped = text.strip()
    try:
        tiles = _parse_tiles(stripped, text)
    except HandError:
        # Several digits and one suit letter ("10s"): not one tile, rather than a 0 named as a red five.
        if not (len(stripped) > 2 and stripped[-1] in _SUIT_BASE and all(ch in _DIGITS for ch in stripped[:-1])):
            raise
        tiles = []
    if len(tiles) != 1:
        raise HandError(ErrorCode.BAD_WIN, f"{_shown(text)} is not one tile (write e.g. '5p', '7z' or 'Wh')")
    return tiles[0]


def _parse_tiles(group: str, token: str) -> list[int]:
    """Tiles of one whitespace-free group such as ``123m45pEE`` (no brackets)."""
    tiles: list[int] = []
    digits = ""
    i = 0
    while i < len(group):
        ch = group[i]
        if ch in _DIGITS:
            digits += ch
            i += 1
            continue
        if ch in _SUIT_BASE:
            if not digits:
                raise HandError(ErrorCode.BAD_TOKEN, f"{_shown(token)}: suit letter {ch!r} has no digits before it")
            for d in digits:
                n = int(d)
                if ch == "z" and not 1 <= n <= 7:
                    raise HandError(ErrorCode.BAD_TOKEN, f"{_shown(token)}: '{d}z' is not a tile (honours are 1z-7z)")
                if n == 0:
                    raise HandError(ErrorCode.BAD_TOKEN, f"{_shown(token)}: '0{ch}' is not a tile (red fives are not used; write 5{ch})")
                tiles.append(_SUIT_BASE[ch] + n - 1)
            digits = ""
            i += 1
            continue
        if ch.isspace():
            raise HandError(
                ErrorCode.BAD_TOKEN,
                f"{_shown(token)}: white space inside a group (allowed only between complete groups, e.g. '123m 45p')",
            )
        if ch == "f":
            raise HandError(ErrorCode.BAD_TOKEN, f"{_shown(token)}: flowers are not part of the hand; pass them as flowers=")
        letter = "Wh" if group.startswith("Wh", i) else ch
        if letter not in HONOUR_LETTERS:
            raise HandError(
                ErrorCode.BAD_TOKEN,
                f"{_shown(token)}: unknown letter {ch!r} (suits m p s z, honours E S W N Wh G R)",
            )
        if digits:
            raise HandError(ErrorCode.BAD_TOKEN, f"{_shown(token)}: digits {_shown(digits)} have no suit letter (m, p, s or z)")
        tiles.append(27 + HONOUR_LETTERS.index(letter))
        i += len(letter)
    if digits:
        raise HandError(ErrorCode.BAD_TOKEN, f"{_shown(token)}: digits {_shown(digits)} have no suit letter (m, p, s or z)")
    return tiles


def _declared_set(token: str) -> tuple[SetKind, int]:
    inner = token[1:-1].strip()
    tiles = sorted(_parse_tiles(inner, token)) if inner else []
    same = len(set(tiles)) == 1
    if token[0] == "(":
        if len(tiles) == 4 and same:
            return SetKind.CONCEALED_GONG, tiles[0]
        raise HandError(ErrorCode.BAD_SET, f"{_shown(token)}: a concealed gong (...) must be four of one kind")
    if len(tiles) == 4 and same:
        return SetKind.GONG, tiles[0]
    if len(tiles) == 3 and same:
        return SetKind.PONG, tiles[0]
    if (
        len(tiles) == 3
        and tiles[0] < 27
        and tiles[0] // 9 == tiles[2] // 9
        and tiles[1] == tiles[0] + 1
        and tiles[2] == tiles[0] + 2
    ):
        return SetKind.SHEUNG, tiles[0]
    raise HandError(ErrorCode.BAD_SET, f"{_shown(token)}: an exposed set [...] must be a sheung, pong or gong")


def parse_hand(text: str, n_tiles: int = 16) -> ParsedHand:
    """Parse the 16 tiles before the win (LRC rules section 8).

    Parameters
    ----------
    text : str
        Concealed tiles in Tenhou notation or honour letters, exposed sets in
        ``[...]``, concealed gongs in ``(...)``; white space between groups.
    n_tiles : int
        Tiles the hand must hold: 16, or 17 for a hand after its draw
        (:func:`fastscore.discards`).

    Returns
    -------
    ParsedHand

    Raises
    ------
    HandError (a ValueError)
        Naming the bad token: unknown letter, digits without a suit, a set that
        is not a sheung, pong or gong, or not 16 tiles.  Copies per kind are
        checked with the winning tile by :func:`fastscore.batch.validate`.

    Examples
    --------
    >>> h = parse_hand("11m99m77p11s9s EE RR 333p")
    >>> h.n_tiles, int(h.concealed[27])
    (16, 2)
    """
    if not isinstance(text, str):
        raise HandError(
            ErrorCode.BAD_TOKEN,
            f"hand must be a string in tile notation such as '123m456p...', got {type(text).__name__} {_shown(text)}",
        )
    split = _SPLIT_GROUP.search(text)
    if split:
        raise HandError(
            ErrorCode.BAD_TOKEN,
            f"{_shown(text)}: white space after digits {split.group(1)!r} (white space is allowed only between complete "
            f"groups: write e.g. '123m', not '12 3m')",
        )
    counts = np.zeros(N_KINDS, dtype=np.int64)
    declared: list[tuple[SetKind, int]] = []
    pos = 0
    for m in _GROUP.finditer(text):
        if m.start() != pos:
            break
        pos = m.end()
        token = m.group()
        if token.isspace():
            continue
        if token[0] in "[(":
            declared.append(_declared_set(token))
        else:
            for t in _parse_tiles(token, token):
                counts[t] += 1
    if pos != len(text):
        raise HandError(ErrorCode.BAD_TOKEN, f"unbalanced or nested bracket {text[pos]!r} at position {pos} of {_shown(text)}")
    if not text.strip():
        raise HandError(ErrorCode.TILE_COUNT, "empty hand: a hand holds 16 tiles before the win")
    if len(declared) > MAX_DECLARED:
        raise HandError(ErrorCode.TILE_COUNT, f"{len(declared)} declared sets (at most {MAX_DECLARED})")
    # Count on int64, before the uint8 cast: 256 copies of a tile would wrap to 0.
    held = int(counts.sum()) + 3 * len(declared)
    if held != n_tiles:
        when = "before the win" if n_tiles == 16 else "after its draw"
        raise HandError(
            ErrorCode.TILE_COUNT,
            f"{_shown(text)} holds {held} tiles (a declared set counts 3); a hand holds {n_tiles} {when}",
        )
    return ParsedHand(counts.astype(np.uint8), tuple(declared))


def parse_flowers(text: str) -> tuple[int, ...]:
    """Flower numbers 1-8 from ``"1f2f"``, ``"12f"`` or ``"1f 2f"`` (LRC rules 9.15).

    Raises
    ------
    HandError (a ValueError)
        For a number outside 1-8, a repeated flower, or any other text.
    """
    if text is None:
        return ()
    if not isinstance(text, str):
        raise HandError(ErrorCode.BAD_CONTEXT, f"flowers must be a string such as '1f2f', got {_shown(text)}")
    found: list[int] = []
    for token in text.split():
        if not re.fullmatch(r"([0-9]+f)+", token):
            raise HandError(ErrorCode.BAD_CONTEXT, f"flowers {_shown(token)}: write flowers as 1f..8f, e.g. '1f5f' or '15f'")
        for digits in re.findall(r"([0-9]+)f", token):
            for d in digits:
                n = int(d)
                if not 1 <= n <= 8:
                    raise HandError(ErrorCode.BAD_CONTEXT, f"flower '{d}f' in {_shown(token)} is out of range (1f-8f)")
                if n in found:
                    raise HandError(ErrorCode.BAD_CONTEXT, f"flower '{d}f' in {_shown(text)} is repeated")
                found.append(n)
    return tuple(sorted(found))


def parse_wind(value, field: str) -> int:
    """Seat or round wind ``"E" "S" "W" "N"`` (or 0-3) as 0-3; spaces around the letter are ignored,
    as around a tile or a flag."""
    if isinstance(value, str) and value.strip() in WINDS and len(value.strip()) == 1:
        return WINDS.index(value.strip())
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value <= 3:
        return int(value)
    raise HandError(ErrorCode.BAD_CONTEXT, f"{field} {_shown(value)} is not a wind (E, S, W or N)")


def format_tile(tile: int) -> str:
    """Notation of one tile index, e.g. ``format_tile(31) == '5z'``."""
    return TILE_NAMES[tile]


def format_counts(counts) -> str:
    """Tenhou notation of a ``(34,)`` count vector, e.g. ``'123m55z'``."""
    out = []
    for suit, base, n in (("m", 0, 9), ("p", 9, 9), ("s", 18, 9), ("z", 27, 7)):
        digits = "".join(str(i + 1) * int(counts[base + i]) for i in range(n))
        if digits:
            out.append(digits + suit)
    return "".join(out)


def format_set(kind: SetKind, tile: int) -> str:
    """Notation of a declared set, e.g. ``[234m]`` or ``(9999s)``."""
    suit = TILE_NAMES[tile][1]
    n = int(TILE_NAMES[tile][0])
    if kind == SetKind.SHEUNG:
        body = f"{n}{n + 1}{n + 2}{suit}"
    else:
        body = f"{n}" * (4 if kind in (SetKind.GONG, SetKind.CONCEALED_GONG) else 3) + suit
    return f"({body})" if kind == SetKind.CONCEALED_GONG else f"[{body}]"
