"""The compiled parser agrees with the Python one, row for row (fastscore/kernels/parse.py, fastscore/arrow.py).

``HandBatch.from_arrow`` and ``HandBatch.from_records`` (compiled) against
:func:`fastscore.records.parse_records` (one Python call per record).

Every test builds a pyarrow table, parses it with the compiled path and with
the Python path on ``table.to_pylist()``, and compares every column (values
and dtypes), every error code and every message.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from conformance import load
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import ready_hands, winning_hands

from fastscore import HandBatch, score_batch
from fastscore.arrow import _compiled_pass, columns_from_records
from fastscore.kernels.parse import DEFER, WIN_MISSING
from fastscore.records import RECORD_KEYS, _flag, _streak, parse_records
from fastscore.tiles import TILE_NAMES, ErrorCode, HandError, parse_flowers, parse_hand, parse_tile, parse_wind

def compiled_batch(records, **kwargs) -> HandBatch:
    """The compiled parser's batch of dicts, whatever their number (HandBatch.from_records parses
    a few records in Python)."""
    return HandBatch(**vars(columns_from_records(records, **kwargs)))


def slow_batch(records, **kwargs) -> HandBatch:
    """The plain Python parser's batch: the oracle of the compiled one."""
    return HandBatch(**vars(parse_records(records, **kwargs)))


COLUMNS = ("concealed", "declared", "win", "self_drawn", "seat", "round", "flowers", "streak", "closing", "events",
           "error")


def assert_same(table, require_win: bool = True) -> HandBatch:
    """Parse ``table`` both ways and require identical batches."""
    fast = HandBatch.from_arrow(table, require_win=require_win)
    present = [k for k in RECORD_KEYS if k in table.column_names]
    slow = slow_batch(table.select(present).to_pylist(), require_win=require_win)
    assert len(fast) == len(slow) == table.num_rows
    for name in COLUMNS:
        a, b = getattr(fast, name), getattr(slow, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        bad = np.flatnonzero((a != b).reshape(len(a), -1).any(axis=1)) if len(a) else []
        assert not len(bad), f"{name} differs on rows {list(bad)[:5]}: {table.slice(int(bad[0]), 1).to_pylist()}"
    assert fast.messages == slow.messages
    return fast


# --------------------------------------------------------------------------- strategies

GRAMMAR = ["1", "2", "3", "5", "7", "8", "9", "0", "m", "p", "s", "z", "f", "E", "S", "W", "N", "Wh", "G", "R",
           "h", "[", "]", "(", ")", " ", " ", "\t", "\x1c", "x", "123m", "456p", "789s", "11z", "EEE", "[123m]",
           "[555z]", "[7777p]", "(9999s)", "[EEE]", "(WhWhWhWh)", "[1m2m3m]", "RR", "\u3000", "é"]
grammar_text = st.lists(st.sampled_from(GRAMMAR), max_size=24).map("".join)


@st.composite
def mutated_hands(draw):
    """A valid hand with a few characters inserted, deleted or replaced: near misses of every kind."""
    hand, _, _ = draw(winning_hands())
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(hand)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.sampled_from(GRAMMAR))
        if op == "insert":
            hand = hand[:i] + piece + hand[i:]
        elif op == "delete":
            hand = hand[:i] + hand[i + 1:]
        else:
            hand = hand[:i] + piece + hand[i + 1:]
    return hand


hand_texts = st.one_of(
    winning_hands().map(lambda h: h[0]),
    ready_hands().map(lambda h: h[0]),
    mutated_hands(),
    grammar_text,
    st.text(max_size=30),
    st.none(),
)
win_texts = st.one_of(
    st.sampled_from(list(TILE_NAMES) + ["E", "Wh", "R", " 5p ", "\t9s\x1f", "1f", "5 p", "11m", "0m", "8z", "",
                                        "  ", "W h", "Whh", "m", "5", "[5p]", "５p"]),
    grammar_text.map(lambda s: s[:6]),
    st.text(max_size=4),
    st.none(),
)
flower_texts = st.one_of(
    st.lists(st.integers(1, 8), unique=True, max_size=8).map(lambda ns: "".join(f"{n}f" for n in ns)),
    st.sampled_from(["", " ", "1f5f", "15f", "1f 5f", "\t1f\x1c5f ", "9f", "0f", "1f1f", "11f", "f1", "1ff",
                     "1f f", "12", "1f\u30005f", "1F"]),
    st.lists(st.sampled_from(list("0123456789f ")), max_size=8).map("".join),
    st.text(max_size=5),
    st.none(),
)
FLAG_STRINGS = ["true", "false", "True", " yes ", "NO", "1", "0", "", " ", "maybe", "2", "tru e", "\x1ctrue\x1f",
                "\u00a0true", "ｔrue", "YES\n"]
WIND_STRINGS = ["E", "S", "W", "N", "", "e", "X", "E ", "ES", "Wh", "É"]
STREAK_STRINGS = ["0", "3", " 12 ", "\t7\n", "+3", "1_0", "-1", "1000", "1001", "00000000000000000001", "", " ",
                  "٣", "3.0", "\x1c3", "99999999999999999999999", "7\x85"]

# Per column: Arrow type -> strategy of values.
COLUMN_KINDS = {
    "win": {"string": win_texts},
    "flowers": {"string": flower_texts},
    "self_drawn": {
        "bool": st.one_of(st.none(), st.booleans()),
        "string": st.one_of(st.none(), st.sampled_from(FLAG_STRINGS), st.text(max_size=5)),
        "int": st.one_of(st.none(), st.integers(-2, 3)),
    },
    "seat": {
        "string": st.one_of(st.none(), st.sampled_from(WIND_STRINGS), st.text(max_size=2)),
        "int": st.one_of(st.none(), st.integers(-1, 5)),
    },
    "streak": {
        "int": st.one_of(st.none(), st.integers(-5, 1005), st.sampled_from([2**40, -(2**40)])),
        "float": st.one_of(st.none(), st.floats(), st.sampled_from([0.0, -0.0, 3.0, 3.5, 1000.0, 1001.0])),
        "string": st.one_of(st.none(), st.sampled_from(STREAK_STRINGS), st.text(max_size=4)),
    },
}
COLUMN_KINDS["closing"] = COLUMN_KINDS["self_drawn"]
COLUMN_KINDS["round"] = COLUMN_KINDS["seat"]
EVENT_WORDS = ["last_tile", "after_gong", "robbing_gong", "heavenly", "earthly", "ready_first", "Last_Tile", "tsumo"]
COLUMN_KINDS["events"] = {
    "string": st.one_of(st.none(), st.lists(st.sampled_from(EVENT_WORDS), max_size=3).map(" ".join),
                        st.lists(st.sampled_from(EVENT_WORDS), max_size=2).map(",".join), st.text(max_size=5)),
    "int": st.one_of(st.none(), st.integers(-1, 130)),
    "list": st.one_of(st.none(), st.lists(st.sampled_from(EVENT_WORDS), max_size=3)),
}
ARROW_TYPES = {"bool": pa.bool_(), "int": pa.int64(), "float": pa.float64(), "list": pa.list_(pa.string())}


@st.composite
def tables(draw):
    """A table of random records: random columns present, each of a random Arrow type."""
    large = draw(st.booleans())
    string_type = pa.large_string() if large else pa.string()
    fields = [pa.field("hand", string_type)]
    value_strategies = [hand_texts]
    for name in RECORD_KEYS[1:]:
        if draw(st.integers(0, 4)) == 0:
            continue  # column absent
        kind = draw(st.sampled_from(sorted(COLUMN_KINDS[name])))
        fields.append(pa.field(name, string_type if kind == "string" else ARROW_TYPES[kind]))
        value_strategies.append(COLUMN_KINDS[name][kind])
    rows = draw(st.lists(st.tuples(*value_strategies), min_size=1, max_size=12))
    columns = [pa.array([row[j] for row in rows], type=f.type) for j, f in enumerate(fields)]
    return pa.Table.from_arrays(columns, schema=pa.schema(fields))


@st.composite
def valid_tables(draw):
    """Winning hands with their context, as a player's file would hold them."""
    hands = draw(st.lists(winning_hands(), min_size=1, max_size=6))
    records = [dict(hand=h, win=w, **ctx) for h, w, ctx in hands]
    return pa.Table.from_pylist(records)


# --------------------------------------------------------------------------- properties


@given(tables(), st.booleans())
def test_random_tables_agree(table, require_win):
    assert_same(table, require_win)


@settings(suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(valid_tables())
def test_winning_hands_agree(table):
    fast = assert_same(table)
    assert (fast.error == 0).all(), fast.messages


@settings(suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.lists(ready_hands(), min_size=1, max_size=6))
def test_ready_hands_agree(hands):
    table = pa.Table.from_pylist([dict(hand=h, **ctx) for h, ctx in hands])
    fast = assert_same(table, require_win=False)
    assert (fast.error == 0).all() and (fast.win == -1).all()


@given(tables(), st.integers(0, 12), st.integers(0, 12))
def test_sliced_tables_agree(table, start, length):
    assert_same(table.slice(start, length) if start < table.num_rows else table.slice(0, length))


@given(tables(), st.lists(st.integers(0, 12), max_size=4))
def test_chunked_tables_agree(table, cuts):
    """A table in several chunks (slices of one column set, so chunk offsets differ) and as a RecordBatch."""
    bounds = sorted({0, table.num_rows, *(c for c in cuts if c < table.num_rows)})
    chunked = pa.concat_tables([table.slice(a, b - a) for a, b in zip(bounds, bounds[1:])])
    assert_same(chunked)
    assert_same(chunked.combine_chunks().to_batches()[0])


def _python_code(parse, value) -> int:
    try:
        parse(value)
    except HandError as exc:
        return int(exc.code)
    return 0


def _python_win(text):
    if text is None or text == "":
        return
    if text.strip().endswith("f"):
        raise HandError(ErrorCode.BAD_WIN, "a flower")
    try:
        parse_tile(text)
    except HandError as exc:
        raise HandError(ErrorCode.BAD_WIN, str(exc)) from None


PYTHON_FIELDS = {
    "hand": parse_hand,
    "win": _python_win,
    "flowers": lambda v: parse_flowers(v or ""),
    "self_drawn": lambda v: _flag(v, "self_drawn"),
    "seat": lambda v: parse_wind(v or "E", "seat"),
    "streak": _streak,
}


@given(st.lists(st.one_of(grammar_text, st.text(max_size=20), st.sampled_from(FLAG_STRINGS + STREAK_STRINGS)),
                min_size=1, max_size=20))
def test_kernel_codes_mirror_the_python_parser(texts):
    """Column by column, the kernel reports the Python parser's own code (DEFER: it lets Python decide)."""
    table = pa.table({name: pa.array(texts, type=pa.string()) for name in PYTHON_FIELDS})
    _, codes, _ = _compiled_pass(pa, table, {name: "string" for name in PYTHON_FIELDS}, True)
    for col, name in enumerate(RECORD_KEYS):
        if name not in PYTHON_FIELDS:
            continue
        for i, text in enumerate(texts):
            got = int(codes[i, col])
            if got == DEFER:
                assert not text.isascii() or name == "streak", (name, text)
                continue
            want = _python_code(PYTHON_FIELDS[name], text)
            if name == "win" and text == "":
                want = WIN_MISSING
            assert got == want, (name, text)


# --------------------------------------------------------------------------- fixed cases


def test_conformance_hands_agree():
    cases = [c["case"] for c in load("score_cases.jsonl")]
    table = pa.Table.from_pylist(cases)
    fast = assert_same(table)
    assert (fast.error == 0).all(), fast.messages
    assert_same(table.drop_columns(["win"]), require_win=False)
    assert_same(table.cast(pa.schema([pa.field(f.name, pa.large_string() if f.type == pa.string() else f.type)
                                      for f in table.schema])))


def test_waits_conformance_hands_agree():
    cases = [c["case"] if "case" in c else c for c in load("waits_cases.jsonl")]
    records = [{k: v for k, v in case.items() if k in RECORD_KEYS} for case in cases]
    assert_same(pa.Table.from_pylist(records), require_win=False)


@pytest.mark.parametrize("hand", [
    "11m99m77p11s9s EE RR 333p",  # section 8 example
    "12 3m", "[12 3m]", "123m]", "[123m", "[[123m]]", "([123m])", "(123m)", "[1234m]", "[789s1p]", "[8m9m1p]",
    "[EEE] [111z] (WhWhWhWh) [1m2m3m] 11m", "[123m][123m][123m][123m][123m][123m]", "", "   ", "\x1c",
    "11m99m77p11s9s EE RR 333p 1f", "0m", "8z", "9z", "Wh", "Whh", "WWh", "s", "1", "1E", "11111111111111111m",
    "1111111111111111m", "[EFG]", "[]", "()", "( 1111m )", "[ 123m]", "[1 23m]", "[1m 2m3m]",
])
def test_notation_corner_cases_agree(hand):
    assert_same(pa.table({"hand": [hand, hand], "win": ["9s", None]}))


def test_nulls_agree():
    table = pa.table({
        "hand": ["11m99m77p11s9s EE RR 333p", None, "11m99m77p11s9s EE RR 333p", "11m99m77p11s9s EE RR 333p"],
        "win": [None, "9s", "9s", ""],
        "self_drawn": [None, True, True, None],
        "seat": [None, "S", "", "N"],
        "round": pa.array([None, None, None, None], type=pa.string()),
        "flowers": [None, "1f", "", None],
        "streak": pa.array([None, 1, 2, None], type=pa.int32()),
        "closing": pa.array([None] * 4, type=pa.null()),
    })
    fast = assert_same(table)
    assert fast.error.tolist() == [5, 1, 0, 5]
    assert_same(table, require_win=False)


def test_sliced_columns_with_nulls_agree():
    hands = pa.array([None, "123m", "11m99m77p11s9s EE RR 333p", None, "11m99m77p11s9s EE RR 333p"] * 7)
    wins = pa.array(["9s", None, "9s", "1m", "Wh"] * 7, type=pa.large_string())
    table = pa.table({"hand": hands, "win": wins})
    for start in range(9):
        assert_same(table.slice(start, 17))
        assert_same(pa.table({"hand": hands.slice(start, 20), "win": wins.slice(start + 3, 20)}))


def test_many_small_chunks_agree():
    cases = [c["case"] for c in load("score_cases.jsonl")][:200]
    table = pa.concat_tables([pa.Table.from_pylist(cases[i:i + 1]) for i in range(len(cases))])
    assert table.column("hand").num_chunks == 200
    assert_same(table)


def test_csv_style_strings_agree():
    table = pa.table({
        "hand": ["11m99m77p11s9s EE RR 333p"] * 6,
        "win": ["9s"] * 6,
        "self_drawn": ["true", "False", " yes ", "0", "", "maybe"],
        "seat": ["E", " S", "W\t", "N", "", "X"],  # spaces around a wind are ignored, as around a tile or flag
        "round": ["S", "", "E", "E", "N", "E"],
        "flowers": ["1f5f", "15f", "1f 5f", "", "9f", "1f"],
        "streak": ["0", "3", " 12 ", "", "1001", "+2"],
        "closing": ["0", "no", "1", "TRUE", "", "no"],
    })
    fast = assert_same(table)
    assert fast.flowers.tolist()[:4] == [17, 17, 17, 0]
    assert fast.seat.tolist()[:4] == [0, 1, 2, 3] and fast.error.tolist()[:4] == [0, 0, 0, 0]


def test_numeric_context_columns_agree():
    table = pa.table({
        "hand": ["11m99m77p11s9s EE RR 333p"] * 5,
        "win": ["9s"] * 5,
        "self_drawn": pa.array([0, 1, 2, None, 1], type=pa.int8()),
        "seat": pa.array([0, 3, 4, None, 1], type=pa.uint8()),
        "round": pa.array([1, 2, 3, 0, None], type=pa.int64()),
        "streak": pa.array([0.0, 2.0, 2.5, float("nan"), None], type=pa.float64()),
        "closing": pa.array([False, True, None, True, False]),
    })
    assert_same(table)


def test_dictionary_and_view_strings_agree():
    cases = [c["case"] for c in load("score_cases.jsonl")][:100]
    table = pa.Table.from_pylist(cases)
    encoded = table.set_column(0, "hand", table.column("hand").dictionary_encode())
    assert_same(encoded)
    if hasattr(pa, "string_view"):
        assert_same(table.set_column(0, "hand", table.column("hand").cast(pa.string_view())))


def _dictionary_encoded(table, index_type):
    """``table`` with every string column dictionary-encoded, indices of ``index_type``."""
    columns = []
    for column in table.columns:
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            column = column.dictionary_encode().cast(pa.dictionary(index_type, column.type))
        columns.append(column)
    return pa.Table.from_arrays(columns, names=table.column_names)


@given(tables(), st.sampled_from([pa.int8(), pa.uint8(), pa.int16(), pa.int32(), pa.int64()]), st.integers(0, 12))
def test_dictionary_encoded_tables_agree(table, index_type, start):
    """Every string column dictionary-encoded (``fastscore batch`` reads a Parquet file's short
    columns so: the kernels read the values through the indices), whole and sliced."""
    encoded = _dictionary_encoded(table, index_type)
    assert_same(encoded)
    assert_same(encoded.slice(min(start, table.num_rows)))


def test_dictionary_with_a_null_value_agrees():
    """A null in the dictionary itself (not in the indices): read as the plain strings."""
    hand = "11m99m77p11s9s EE RR 333p"
    seats = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 2, 1, 0], type=pa.int8()), pa.array(["S", None, "W"]))
    wins = pa.DictionaryArray.from_arrays(pa.array([0, 0, 1, 2, 0, 1]), pa.array(["9s", "1m", ""], pa.large_string()))
    table = pa.table({"hand": [hand] * 6, "win": wins, "seat": seats})
    fast = assert_same(table)
    assert fast.seat.tolist()[:2] == [1, 0] and fast.error.tolist()[3] == ErrorCode.BAD_WIN
    assert_same(table.slice(1))


def test_rows_the_python_parser_rereads_from_string_view_and_unusual_dictionaries():
    """A flagged row is taken from the table and parsed again in Python: columns pyarrow cannot
    ``take`` as they are (string_view; chunk dictionaries that hold a null) are read as plain strings."""
    hand = "11m99m77p11s9s EE RR 333p"
    seats = pa.chunked_array([
        pa.DictionaryArray.from_arrays(pa.array([0, 1], pa.int8()), pa.array(["S", None])),
        pa.DictionaryArray.from_arrays(pa.array([0, 0], pa.int8()), pa.array(["W"])),
    ])
    fast = assert_same(pa.table({"hand": [hand, hand + "x", hand, hand], "win": ["9s"] * 4, "seat": seats}))
    assert fast.error.tolist() == [0, ErrorCode.BAD_TOKEN, 0, 0] and fast.seat.tolist() == [1, 0, 2, 2]
    if hasattr(pa, "string_view"):
        views = pa.table({"hand": pa.array([hand, hand + "x"], pa.string_view()),
                          "win": pa.array(["9s", "x"], pa.string_view())})
        assert assert_same(views).error.tolist() == [0, ErrorCode.BAD_TOKEN]  # the hand is read first
        # Dictionaries of string_view values, one holding a null: pyarrow decodes neither as it is.
        for values in (["9s", "x"], ["9s", "x", None]):
            wins = pa.DictionaryArray.from_arrays(pa.array([0, 1, 0]), pa.array(values, pa.string_view()))
            table = pa.table({"hand": [hand, hand, hand + "x"], "win": wins})
            assert assert_same(table).error.tolist() == [0, ErrorCode.BAD_WIN, ErrorCode.BAD_TOKEN]


BINARY_TYPES = [pa.binary(), pa.large_binary()] + ([pa.binary_view()] if hasattr(pa, "binary_view") else [])


def _as_bytes(table, binary_type, dictionary: bool):
    """``table`` with every string column cast to ``binary_type`` (the text's UTF-8 bytes), dictionary-encoded
    or not."""
    columns = []
    for column in table.columns:
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            column = column.cast(binary_type)
            if dictionary:
                column = column.cast(pa.large_binary()).dictionary_encode()
        columns.append(column)
    return pa.Table.from_arrays(columns, names=table.column_names)


def assert_same_batches(a: HandBatch, b: HandBatch) -> None:
    for name in COLUMNS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.messages == b.messages


@given(tables(), st.sampled_from(BINARY_TYPES), st.booleans(), st.integers(0, 12))
def test_binary_tables_agree(table, binary_type, dictionary, start):
    """Text as UTF-8 bytes (binary columns, as Spark and some writers store it) parses as the same text."""
    encoded = _as_bytes(table, binary_type, dictionary)
    assert_same_batches(HandBatch.from_arrow(encoded), assert_same(table))
    start = min(start, table.num_rows)
    assert_same_batches(HandBatch.from_arrow(encoded.slice(start)), HandBatch.from_arrow(table.slice(start)))


@pytest.mark.parametrize("binary_type", BINARY_TYPES, ids=str)
def test_bytes_that_are_not_utf8_flag_their_row(binary_type):
    """An undecodable byte reads as U+FFFD, as ``HandBatch.from_structured`` decodes ``S`` fields:
    its row is flagged with the message of that text, and the other rows are read as they are."""
    hand = "11m99m77p11s9s EE RR 333p"
    hands = [hand.encode(), b"11m99m77p11s9s EE RR 333\xffp", hand.encode(), hand.encode()]
    wins = [b"9s", b"9s", b"\xc3", b"9s"]
    seats = [b"S", b"E", b"E", b"\x80"]
    table = pa.table({"hand": pa.array(hands, binary_type), "win": pa.array(wins, binary_type),
                      "seat": pa.array(seats, binary_type)})
    fast = HandBatch.from_arrow(table)
    text = pa.table({name: [v.decode("utf-8", "replace") for v in values]
                     for name, values in (("hand", hands), ("win", wins), ("seat", seats))})
    assert_same_batches(fast, assert_same(text))
    assert fast.error.tolist() == [0, ErrorCode.BAD_TOKEN, ErrorCode.BAD_WIN, ErrorCode.BAD_CONTEXT]
    assert fast.seat.tolist()[0] == 1 and "'\ufffd'" in fast.messages[1]


def test_many_chunks_whose_dictionaries_hold_nulls_agree():
    """Many small chunks are joined before the kernels run; chunk dictionaries that hold a null (which
    pyarrow cannot unify) are decoded first, text and bytes alike."""
    hand = "11m99m77p11s9s EE RR 333p"
    for values in ([hand, None], [hand.encode(), None]):
        one = pa.DictionaryArray.from_arrays(pa.array([0, 0], pa.int32()), pa.array(values))
        two = pa.DictionaryArray.from_arrays(pa.array([1, 1], pa.int32()), pa.array(values[::-1]))
        table = pa.table({"hand": pa.chunked_array([one, two] * 5), "win": [None, "9s"] * 10})
        assert table.column("hand").num_chunks == 10
        fast = HandBatch.from_arrow(table)
        assert_same_batches(fast, assert_same(table.cast(pa.schema([("hand", pa.string()), ("win", pa.string())]))))
        assert fast.error.tolist() == [ErrorCode.BAD_WIN, 0] * 10


def test_mixed_offset_types_agree():
    """string and large_string columns side by side (one offset type per kernel call)."""
    cases = [c["case"] for c in load("score_cases.jsonl")][:300]
    table = pa.Table.from_pylist(cases)
    for wide in (["hand"], ["win", "flowers"], ["hand", "seat"]):
        assert_same(table.cast(pa.schema([pa.field(f.name, pa.large_string() if f.name in wide else f.type)
                                          for f in table.schema])).slice(7))


def test_empty_table():
    fast = assert_same(pa.table({"hand": pa.array([], type=pa.string())}))
    assert len(fast) == 0


def test_unused_columns_are_refused():
    """A column the parser does not read is an error naming it, not dropped unread (issue 20 point 1)."""
    with pytest.raises(ValueError, match=r"table: unknown column 'id' \(and 'note'\); fastscore reads the columns"):
        HandBatch.from_arrow(pa.table({"id": [1], "hand": ["11m99m77p11s9s EE RR 333p"], "win": ["9s"], "note": [b"x"]}))


@pytest.mark.parametrize("table, match", [
    (pa.table({"win": ["9s"]}), "no 'hand' column"),
    (pa.table({"hand": [1]}), "column 'hand' has type int64"),
    (pa.table({"hand": ["1m"], "seat": [True]}), "column 'seat' has type bool"),
    (pa.table({"hand": ["1m"], "flowers": [15]}), "column 'flowers' has type int64"),
    (pa.table({"hand": ["1m"], "streak": [[1]]}), "column 'streak' has type list"),
])
def test_bad_schema_raises_with_expected_columns(table, match):
    with pytest.raises(ValueError, match=match) as info:
        HandBatch.from_arrow(table)
    assert "expected columns: hand (string, required" in str(info.value)


def test_not_arrow_raises():
    with pytest.raises(TypeError, match="pyarrow Table or RecordBatch"):
        HandBatch.from_arrow([{"hand": "123m"}])


# --------------------------------------------------------------------------- records (JSON lines, CSV)


def _text_or_none(texts):
    return st.one_of(texts, st.none())


#: Records of JSON lines (typed values) and of CSV (strings, None for a missing cell), keys optional.
_JSON_RECORDS = st.fixed_dictionaries({"hand": _text_or_none(st.text(max_size=40))}, optional={
    "win": _text_or_none(st.sampled_from(list(TILE_NAMES) + ["", "9f", "x"])),
    "self_drawn": _text_or_none(st.booleans()),
    "seat": _text_or_none(st.sampled_from(["E", "S", "W", "N", "x", "", " e "])),
    "round": _text_or_none(st.sampled_from(["E", "S", "W", "N", "q"])),
    "flowers": _text_or_none(st.sampled_from(["", "1f", "15f", "2f 6f", "1f1f", "9f"])),
    "streak": _text_or_none(st.integers(-2, 1002)),
    "closing": _text_or_none(st.booleans()),
})
_CSV_RECORDS = st.fixed_dictionaries({"hand": _text_or_none(st.text(max_size=40))}, optional={
    k: _text_or_none(st.text(max_size=4)) for k in RECORD_KEYS[1:]})


def _valid_record(case) -> dict:
    hand, win, _ = case
    return {"hand": hand, "win": win, "seat": "S"}


@settings(suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.lists(st.one_of(_JSON_RECORDS, _CSV_RECORDS, winning_hands().map(_valid_record),
                          st.sampled_from([[], "11m", 3, None, {"__error__": "bad line"}])), max_size=8),
       st.booleans())
def test_from_records_equals_the_python_parser(records, require_win):
    """The JSON / CSV reading path: records through Arrow and the compiled parser, or as they are."""

    fast = compiled_batch(records, require_win=require_win)
    slow = slow_batch(records, require_win=require_win)
    for name in COLUMNS:
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)
        assert getattr(fast, name).dtype == getattr(slow, name).dtype
    assert fast.messages == slow.messages


@pytest.mark.parametrize("records, code", [
    ([{"hand": b"11m99m77p11s9s EE RR 333p", "win": b"9s"}], ErrorCode.BAD_TOKEN),
    ([{"hand": "11m99m77p11s9s EE RR 333p", "win": "9s", "seat": b"S"}], ErrorCode.BAD_CONTEXT),
], ids=["hand", "seat"])
def test_records_holding_bytes_are_read_as_from_records_reads_them(records, code):
    """Records are not Arrow columns: text given as bytes is flagged, as HandBatch.from_records flags it,
    although an Arrow binary column is read as UTF-8."""

    fast = compiled_batch(records)
    assert_same_batches(fast, slow_batch(records))
    assert fast.error.tolist() == [code]


def test_from_records_takes_the_compiled_parser_from_its_threshold():
    from fastscore.batch import COMPILED_MIN_RECORDS

    good = {"hand": "11m99m77p11s9s EE RR 333p", "win": "9s", "self_drawn": True, "seat": "S"}
    records = [good, {"hand": "12 3m", "win": "1m"}, {**good, "win": "1m"}] * COMPILED_MIN_RECORDS
    for n in (COMPILED_MIN_RECORDS - 1, COMPILED_MIN_RECORDS, len(records)):
        assert_same_batches(HandBatch.from_records(records[:n]), slow_batch(records[:n]))
    # The seed hand (payout 57: nico_nico 40 + no_flowers 1 + self_draw 1 + all_five_suits 10 + base 5).
    assert score_batch(HandBatch.from_records(records)).payout[:3].tolist() == [57, 0, 0]
