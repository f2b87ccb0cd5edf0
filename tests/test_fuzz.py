"""Fuzzing the public boundary: nothing gets past validation into the kernels (RULES.md section 2).

The numba kernels do not check bounds, so arbitrary input must end in one of
two ways only: a result (a :class:`~fastscore.Score`, a waits dict, a batch
whose invalid rows are flagged) or a ``ValueError`` naming the problem.  Any
other exception, or a crash of the interpreter, is a bug.

Each property runs twice: a CI-sized run under the default hypothesis profile
(tests/conftest.py), and a ``slow`` run of 100,000 examples
(``python3 -m pytest tests/test_fuzz.py -m slow``).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fastscore
from fastscore import ErrorCode, HandBatch, HandError, Score, parse_tile, score_batch, waits_batch
from fastscore.rules import SHAPE_NAMES, Shape
from fastscore.tiles import HONOUR_LETTERS, TILE_NAMES, SetKind, format_counts, format_set
from strategies import random_hands, ready_hands, winning_hands

SLOW = settings(max_examples=100_000, deadline=None, suppress_health_check=list(HealthCheck))


ROUND_MINIMUM = (20, 22, 24, 26)
ERROR_CODES = {int(c) for c in ErrorCode} - {0}

# --------------------------------------------------------------------------------------------
# Text strategies
# --------------------------------------------------------------------------------------------

# Pieces of the notation, valid and almost valid, that a grammar-ish text is assembled from.
# fmt: off
PIECES = (
    list("0123456789") + list("mpszf") + list(HONOUR_LETTERS) + ["h", "w", "e", "M", "x", "z"]
    + ["[", "]", "(", ")", " ", "  ", "\t", "\n"]
    + ["1m", "5p", "9s", "7z", "8z", "0m", "EE", "WhWh", "123m", "456p", "789s", "11z", "1f", "12f"]
    + ["[123m]", "[EEE]", "[111z]", "(1111s)", "(WhWhWhWh)", "[1m2m3m]", "[7777p]", "[124m]", "(111m)", "[]", "()"]
    + ["²", "٣", "１", "\x00", "é"]
)
# fmt: on
grammar_texts = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@st.composite
def mutated(draw, texts):
    """A text with a few single-character edits (insert, delete, replace) from the notation's alphabet."""
    text = list(draw(texts))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        pos = draw(st.integers(0, len(text)))
        piece = draw(st.sampled_from(PIECES))
        if op == "insert":
            text.insert(pos, piece)
        elif text and pos < len(text):
            if op == "delete":
                del text[pos]
            else:
                text[pos] = piece
    return "".join(text)


valid_hands = st.one_of(
    winning_hands().map(lambda c: c[0]), ready_hands().map(lambda c: c[0]), random_hands().map(lambda c: c[0])
)
hand_texts = st.one_of(
    st.text(max_size=60),
    grammar_texts,
    valid_hands,
    mutated(valid_hands),
)
win_texts = st.one_of(
    st.sampled_from(TILE_NAMES + HONOUR_LETTERS),
    st.text(max_size=4),
    grammar_texts.map(lambda t: t[:4]),
    st.sampled_from(["1f", "8f", "0m", "8z", " 5p ", "55p", "", "W h"]),
)


def check_score(result) -> None:
    """A :class:`Score` whose fields agree with each other (RULES.md section 6)."""
    assert isinstance(result, Score)
    assert result.payout >= 0
    if not result.is_win:
        assert (result.shape, result.rows, result.points, result.total, result.payout) == (None, {}, 0, 0, 0)
        assert result.legal is False and result.chicken is False
        return
    assert result.shape in SHAPE_NAMES
    assert result.rows["mahjong_base"] == 5
    assert result.legal == (result.payout > 0)
    if result.chicken:
        assert result.legal and result.points == 1 and result.total in ROUND_MINIMUM
    else:
        assert result.total == result.points + 5
    if result.legal:
        assert result.payout >= result.total >= min(ROUND_MINIMUM)


def check_waits(result) -> None:
    assert isinstance(result, dict)
    assert list(result) == sorted(result, key=TILE_NAMES.index)
    for payouts in result.values():
        assert set(payouts) == {"discard", "self_draw"}
        assert payouts["discard"] >= 0 and payouts["self_draw"] >= 0


def score_or_error(hand, win, **ctx):
    """``fastscore.score`` or the error it raised; any exception but a :class:`HandError` propagates."""
    try:
        return fastscore.score(hand, win, **ctx)
    except HandError as exc:  # a ValueError; stricter: a plain ValueError would have no ErrorCode
        assert int(exc.code) in ERROR_CODES
        assert str(exc)
        return exc


def waits_or_error(hand, **ctx):
    try:
        return fastscore.waits(hand, **ctx)
    except HandError as exc:
        assert int(exc.code) in ERROR_CODES
        assert str(exc)
        return exc


def check_text(hand, win) -> None:
    scored = score_or_error(hand, win)
    waited = waits_or_error(hand)
    if isinstance(scored, Score):
        check_score(scored)
    if isinstance(waited, dict):
        check_waits(waited)
    if isinstance(scored, Score):
        # A hand that scores is a valid 16-tile hand, so waits must accept it too, and agree on the win.
        assert isinstance(waited, dict)
        win_name = TILE_NAMES[parse_tile(win)]
        assert (win_name in waited) == scored.is_win
        if scored.is_win:
            assert waited[win_name]["discard"] == scored.payout


# (hand, win): independent texts, or a winning hand with its winning tile (a valid hand rarely wins by chance)
text_cases = st.one_of(
    st.tuples(hand_texts, win_texts),
    winning_hands().map(lambda c: (c[0], c[1])),
    st.tuples(mutated(winning_hands().map(lambda c: c[0])), win_texts),
)


@given(text_cases)
def test_text_fuzz(case):
    check_text(*case)


@pytest.mark.slow
@SLOW
@given(text_cases)
def test_text_fuzz_slow(case):
    check_text(*case)


# --------------------------------------------------------------------------------------------
# Records: any values in any field, single hand and batch agree
# --------------------------------------------------------------------------------------------

anything = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=5),
    st.binary(max_size=3), st.lists(st.integers(0, 3), max_size=2),
)
free_records = st.fixed_dictionaries(
    {"hand": st.one_of(hand_texts, anything), "win": st.one_of(win_texts, anything)},
    optional={
        "self_drawn": st.one_of(st.booleans(), st.sampled_from(["true", "false", "yes", "1", "0", ""]), anything),
        "seat": st.one_of(st.sampled_from("ESWN"), st.integers(-1, 4), anything),
        "round": st.one_of(st.sampled_from("ESWN"), st.integers(-1, 4), anything),
        "flowers": st.one_of(st.sampled_from(["", "1f", "15f", "2f 6f", "1f1f", "9f"]), grammar_texts, anything),
        "streak": st.one_of(st.integers(-2, 1002), anything),
        "closing": st.one_of(st.booleans(), anything),
    },
)


@st.composite
def winning_records(draw):
    """A valid winning record, sometimes with one field replaced by anything."""
    hand, win, ctx = draw(winning_hands())
    record = dict(hand=hand, win=win, **ctx)
    if draw(st.booleans()):
        record[draw(st.sampled_from(sorted(record)))] = draw(anything)
    return record


records = st.one_of(free_records, winning_records())


def check_records(recs) -> None:
    result = score_batch(HandBatch.from_records(recs))  # never raises: bad rows are flagged
    assert len(result) == len(recs)
    for i, (rec, got) in enumerate(zip(recs, result.to_records())):
        error = got.pop("error")
        single = score_or_error(**rec)
        if isinstance(single, HandError):
            assert error == f"row {i}: {single}"
            assert result.error[i] == single.code
            assert (got["is_win"], got["payout"], got["shape"], got["rows"]) == (False, 0, None, {})
        else:
            assert error is None and result.error[i] == 0
            check_score(single)
            assert got == single.to_dict()


@given(st.lists(records, max_size=6))
def test_record_fuzz(recs):
    check_records(recs)


@pytest.mark.slow
@SLOW
@given(st.lists(records, max_size=6))
def test_record_fuzz_slow(recs):
    check_records(recs)


# --------------------------------------------------------------------------------------------
# Arrays: any integer dtype, any values, right and wrong shapes
# --------------------------------------------------------------------------------------------

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def ints(dtype, small=(-2, 6)):
    """Values of ``dtype``: mostly small, sometimes the extremes and the edges of the valid ranges."""
    info = np.iinfo(dtype)
    edges = [info.min, info.max, -1, 0, 4, 5, 7, 8, 26, 27, 33, 34, 40, 127, 128, 255, 256, 1000, 1001, 2**31, -(2**31)]
    lo, hi = max(small[0], info.min), min(small[1], info.max)
    return st.one_of(
        st.integers(lo, hi),
        st.sampled_from([v for v in edges if info.min <= v <= info.max]),
        st.integers(int(info.min), int(info.max)),
    )


@st.composite
def array_rows(draw, dtype, n):
    """``(n, 34)`` counts, ``(n, 5, 2)`` declared sets and ``(n,)`` winning tiles of ``dtype``.

    Rows are winning hands (parsed from tests/strategies.py), random tiles near 16 (kinds mostly at most 4,
    random declared sets), or arbitrary values of the dtype.
    """
    info = np.iinfo(dtype)
    counts = np.zeros((n, 34), dtype=dtype)
    declared = np.zeros((n, 5, 2), dtype=dtype)
    win = np.zeros(n, dtype=dtype)
    for i in range(n):
        kind = draw(st.sampled_from(["win", "win", "tiles", "tiles", "any"]))
        if kind == "win":
            hand_text, win_text, _ = draw(winning_hands())
            hand = fastscore.parse_hand(hand_text)
            counts[i] = hand.concealed
            for k, (set_kind, tile) in enumerate(hand.declared):
                declared[i, k] = (set_kind, tile)
            win[i] = parse_tile(win_text)
            continue
        if kind == "tiles":
            size = draw(st.sampled_from([16, 16, 16, 13, 10, 7, 15, 17]))
            for t in draw(st.lists(st.integers(0, 33), min_size=size, max_size=size)):
                counts[i, t] += 1
        else:
            counts[i] = draw(hnp.arrays(dtype, 34, elements=ints(dtype)))
        for k in range(draw(st.sampled_from([0, 0, 0, 1, 2, 5]))):
            if draw(st.integers(0, 5)) == 0:
                declared[i, k] = (draw(ints(dtype)), draw(ints(dtype, (-2, 40))))
            else:
                declared[i, k] = (draw(st.integers(1, 4)), draw(st.integers(0, min(33, info.max))))
        win[i] = draw(st.integers(0, 33))
    return counts, declared, win


def column(dtype, n, small):
    """A context column: a Python scalar (broadcast), or an ``(n,)`` array of ``dtype``."""
    info = np.iinfo(dtype)
    in_dtype = st.integers(max(small[0], int(info.min)), min(small[1], int(info.max)))
    return st.one_of(st.integers(*small), hnp.arrays(dtype, n, elements=st.one_of(in_dtype, ints(dtype))))


@st.composite
def array_inputs(draw):
    dtype = draw(st.sampled_from(INT_DTYPES))
    n = draw(st.integers(0, 6))
    shape = draw(st.sampled_from(["ok"] * 40 + ["1-d", "33", "35", "3-d", "0-d", "float", "bool"]))
    concealed, declared, win = draw(array_rows(dtype, n))
    if shape == "1-d":
        concealed = concealed.reshape(-1)
    elif shape == "33":
        concealed = concealed[:, :33]
    elif shape == "35":
        concealed = np.concatenate([concealed, np.zeros((n, 1), dtype=dtype)], axis=1)
    elif shape == "3-d":
        concealed = concealed[:, :, None]
    elif shape == "0-d":
        concealed = np.asarray(draw(ints(dtype)), dtype=dtype)
    elif shape == "float":
        concealed = concealed.astype(np.float64)
    elif shape == "bool":
        concealed = concealed.astype(np.bool_)
    kwargs = {}
    if declared.any() or draw(st.booleans()):
        kwargs["declared"] = declared
    if draw(st.integers(0, 9)):
        kwargs["win"] = win if draw(st.integers(0, 3)) else draw(column(dtype, n, (-1, 35)))
    for name, small in (("seat", (-1, 4)), ("round", (-1, 4)), ("flowers", (0, 256)), ("streak", (-1, 1001))):
        if draw(st.booleans()):
            kwargs[name] = draw(column(dtype, n, small))
    for name in ("self_drawn", "closing"):
        if draw(st.booleans()):
            kwargs[name] = draw(st.one_of(st.booleans(), hnp.arrays(np.bool_, n)))
    return concealed, kwargs


def expected_valid(concealed, kwargs) -> np.ndarray:
    """Which rows are valid input (RULES.md section 2), worked out independently in plain Python."""
    n = concealed.shape[0]
    col = {name: np.broadcast_to(np.asarray(kwargs.get(name, default)), (n,)) for name, default in
           (("win", -1), ("seat", 0), ("round", 0), ("flowers", 0), ("streak", 0), ("self_drawn", False),
            ("closing", False))}
    declared = kwargs.get("declared", np.zeros((n, 5, 2), dtype=np.int64))
    ok = np.zeros(n, dtype=bool)
    for i in range(n):
        counts = [int(v) for v in concealed[i]]
        sets = [(int(k), int(t)) for k, t in declared[i]]
        win = int(col["win"][i])
        if any(not 0 <= c <= 4 for c in counts):
            continue
        if any(not (0 <= k <= 4 and 0 <= t <= 33) for k, t in sets):
            continue
        if any(k == SetKind.SHEUNG and (t >= 27 or t % 9 > 6) for k, t in sets):
            continue
        if not (-1 <= win <= 33 and 0 <= int(col["seat"][i]) <= 3 and 0 <= int(col["round"][i]) <= 3):
            continue
        if not (0 <= int(col["flowers"][i]) <= 255 and 0 <= int(col["streak"][i]) <= 1000):
            continue
        if sum(counts) + 3 * sum(1 for k, _ in sets if k) != 16:
            continue
        held = list(counts)
        for k, t in sets:
            if k == SetKind.SHEUNG:
                for d in range(3):
                    held[t + d] += 1
            elif k:
                held[t] += 4 if k in (SetKind.GONG, SetKind.CONCEALED_GONG) else 3
        if win >= 0:
            held[win] += 1
        if max(held) > 4:
            continue
        if bool(col["closing"][i]) and any(k in (SetKind.SHEUNG, SetKind.PONG, SetKind.GONG) for k, _ in sets):
            continue
        # A winning tile is required when win is given and is not -1 in every row (from_arrays).
        if "win" in kwargs and (col["win"] != -1).any() and win < 0:
            continue
        ok[i] = True
    return ok


def hand_text(batch: HandBatch, i: int) -> str:
    return " ".join(
        [format_counts(batch.concealed[i])] + [format_set(SetKind(int(k)), int(t)) for k, t in batch.declared[i] if k]
    )


def check_arrays(concealed, kwargs) -> None:
    try:
        batch = HandBatch.from_arrays(concealed, **kwargs)
    except ValueError as exc:
        # only whole-array problems raise (every other column here is integer and broadcasts to (N,)):
        # counts that are not (N, 34) integers
        raw = np.asarray(concealed)
        assert not (raw.ndim == 2 and raw.shape[1] == 34 and (np.issubdtype(raw.dtype, np.integer) or raw.dtype == bool))
        assert isinstance(exc, HandError) and exc.code == ErrorCode.BAD_ARRAY
        assert "concealed must" in str(exc)
        return
    raw = np.asarray(concealed)
    assert raw.ndim == 2 and raw.shape[1] == 34
    n = raw.shape[0]
    ok = expected_valid(raw.astype(object), kwargs)
    # Values its dtypes cannot hold are flagged as the batch is built, the rest by the row checks that
    # every kernel runs (check() runs them on their own).
    checked = batch.check(require_win=False)
    assert (checked.error == 0).tolist() == ok.tolist()
    for i in np.flatnonzero(~ok):
        assert int(checked.error[i]) in ERROR_CODES
        assert checked.messages[int(i)].startswith(f"row {i}: ")
    # every column is within the kernels' bounds on every row the kernels will read
    assert batch.concealed.dtype == np.uint8 and batch.declared.dtype == np.int8
    good = checked.error == 0
    assert (batch.concealed[good] <= 4).all()
    assert ((batch.declared[good][:, :, 0] >= 0) & (batch.declared[good][:, :, 0] <= 4)).all()
    assert ((batch.declared[good][:, :, 1] >= 0) & (batch.declared[good][:, :, 1] <= 33)).all()
    assert ((batch.seat[good] <= 3) & (batch.round[good] <= 3) & (batch.win[good] <= 33)).all()

    scores = score_batch(batch)
    waits = waits_batch(batch)
    assert len(scores) == len(waits) == n
    assert (scores.payout >= 0).all()
    # Scoring also needs a winning tile: a valid 16-tile row without one is flagged BAD_WIN by score_batch.
    no_win = (checked.error == 0) & (batch.win < 0)
    assert scores.error.tolist() == np.where(no_win, int(ErrorCode.BAD_WIN), checked.error).tolist()
    assert waits.error.tolist() == checked.error.tolist()
    for i in range(n):
        if not good[i] or batch.win[i] < 0:
            # flagged rows (and rows without a winning tile) are not scored
            assert (scores.is_win[i], scores.payout[i], scores.shape[i]) == (False, 0, -1)
            assert not scores.row_points[i].any()
        else:
            result = scores.score_at(i)
            check_score(result)
            win = int(batch.win[i])
            # is_win agrees with the waits kernel, and so does the payout
            assert result.is_win == bool(waits.mask[i, win])
            payouts = waits.payout_self_draw if batch.self_drawn[i] else waits.payout_discard
            assert result.payout == payouts[i, win]
            # ... and with the string API on the same hand
            single = fastscore.score(
                hand_text(batch, i), TILE_NAMES[win], self_drawn=bool(batch.self_drawn[i]),
                seat="ESWN"[batch.seat[i]], round="ESWN"[batch.round[i]],
                flowers="".join(f"{b + 1}f" for b in range(8) if batch.flowers[i] >> b & 1),
                streak=int(batch.streak[i]), closing=bool(batch.closing[i]),
            )
            assert single == result
        if good[i]:
            assert waits.n_waits[i] == waits.mask[i].sum()
            assert not (waits.payout_discard[i] * ~waits.mask[i]).any()
            assert not (waits.payout_self_draw[i] * ~waits.mask[i]).any()
            assert (waits.payout_discard[i] >= 0).all() and (waits.payout_self_draw[i] >= 0).all()
        else:
            assert waits.n_waits[i] == 0 and not waits.mask[i].any()
    shapes = {int(s) for s in scores.shape}
    assert shapes <= {-1} | {int(s) for s in Shape}


@given(array_inputs())
def test_array_fuzz(inputs):
    check_arrays(*inputs)


@pytest.mark.slow
@SLOW
@given(array_inputs())
def test_array_fuzz_slow(inputs):
    check_arrays(*inputs)
