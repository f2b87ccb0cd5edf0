"""JSON lines and CSV files of hand records, read chunk by chunk as lists of dicts (:mod:`fastscore.io.readers`
parses them and checks their columns).

JSON lines are read as bytes and end at ``\\n`` only: a carriage return is JSON
whitespace, and may sit inside a record.  A file that is one JSON array is
read whole.  A record that cannot be read (bad JSON, not an object, an unknown
key after the first record, a CSV row with the wrong number of fields) comes
back as a sentinel dict ``{_BAD_RECORD: message}``, flagged as a row by the
reader; the other records are read as usual.
"""

from __future__ import annotations

import codecs
import csv
import itertools
import json
from collections.abc import Iterator
from pathlib import Path

from ..records import RECORD_KEYS, check_columns
from .schemas import RESULT_COLUMNS

#: The input columns, as named in error messages.
INPUT_SCHEMA = (
    "hand (string, required, e.g. '11m99m77p11s9s EE RR 333p'), "
    "win (string tile, required for scoring, e.g. '9s'), "
    "self_drawn (true/false), seat (E/S/W/N), round (E/S/W/N), flowers (e.g. '1f5f'), "
    "streak (integer), closing (true/false), events (e.g. 'last_tile after_gong'); other columns only with --keep"
)

#: Key of the sentinel record that stands for an unreadable JSON line or CSV row.
_BAD_RECORD = "__error__"


def _missing_hand(path, found) -> ValueError:
    found = ", ".join(repr(c) for c in found) if found else "none"
    return ValueError(f"{path}: no 'hand' column (found {found}); expected columns: {INPUT_SCHEMA}")


def _json_type(pa, path, name: str, value):
    """The Arrow type of a kept JSON column, from its first value that is not null, ``value`` (string
    when every value is null)."""
    if value is None or isinstance(value, str):
        return pa.string()
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, int):
        return pa.int64()
    if isinstance(value, float):
        return pa.float64()
    raise ValueError(f"{path}: --keep {name}: its first value is a JSON "
                     f"{_JSON_TYPES.get(type(value), 'value')}; kept columns hold strings, numbers or booleans")


def _csv_header(path) -> list[str] | None:
    """The column names of a CSV file's header (the first line that is not empty), stripped; None when
    the file has only empty lines."""
    csv.field_size_limit(max(csv.field_size_limit(), _CSV_FIELD_LIMIT))
    with open(path, newline="", encoding="utf-8-sig", errors="replace") as f:
        reader = csv.reader(f)
        try:
            header = next((row for row in reader if row), None)
        except csv.Error as exc:
            raise ValueError(f"{path} line {reader.line_num}: {exc}") from None
    return None if header is None else [h.strip() for h in header]


def _first_json_record(path) -> dict | None:
    """The first record of a JSON lines file (or of a file that is one JSON array) when it is a JSON
    object; None when there is none, or it is not an object (flagged as a row)."""
    name = Path(path).name
    with open(path, "rb") as f:
        head = list(itertools.islice(_numbered_lines(f), 2))
        if not head:
            return None
        if head[0][1].lstrip().startswith(b"["):
            array = _json_array(f, head, name)
            if array is not None:
                return array[0] if array and isinstance(array[0], dict) else None
        try:
            value = json.loads(_text(head[0][1]))
        except json.JSONDecodeError:
            return None
    return value if isinstance(value, dict) else None


def _kept_json_values(path, keys) -> dict:
    """For each of ``keys`` that some record of a JSON lines file (or of a file that is one JSON array)
    holds: its first value that is not null (None when every value is null).  A key no record holds is
    left out.  Lines are parsed only where the key's quoted name appears in them; the scan stops once
    every key has a value."""
    wanted = {k: json.dumps(k).encode() for k in keys}
    found: dict = {}
    name = Path(path).name
    with open(path, "rb") as f:
        numbered = _numbered_lines(f)
        head = list(itertools.islice(numbered, 2))
        array = _json_array(f, head, name) if head and head[0][1].lstrip().startswith(b"[") else None
        if array is not None:
            records = (r for r in array if isinstance(r, dict))
        else:
            records = (_json_object(line) for _, line in itertools.chain(head, numbered)
                       if any(quoted in line for quoted in wanted.values()))
        for record in records:
            for k in [k for k in wanted if k in record]:
                found[k] = record[k]
                if record[k] is not None:
                    del wanted[k]
            if not wanted:
                break
    return found


def _json_object(line: bytes) -> dict:
    """One JSON lines record as a dict (empty when it is not valid JSON or not an object)."""
    try:
        value = json.loads(_text(line))
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _read_jsonl(path, chunk_rows: int, start_row: int, keep=(), lines: list | None = None) -> Iterator[list[dict]]:
    """Chunks of records; ``lines``, when given, is refilled before each chunk with its records' line
    numbers (from 1; left empty for a file that is one JSON array, whose records have none)."""
    # Read as bytes: a record ends at "\n" only.  In text mode Python also ends lines at a lone
    # "\r", which JSON allows inside a record as whitespace: one record would become two rows and
    # every later row would move down one.  A "\r\n" ending is whitespace to json.loads.
    name = Path(path).name
    with open(path, "rb") as f:
        numbered = _numbered_lines(f)
        head = list(itertools.islice(numbered, 2))  # the first two records: is the file one JSON array?
        if not head:
            return
        array = _json_array(f, head, name) if head[0][1].lstrip().startswith(b"[") else None
        if array is not None:  # one JSON array of records (read whole, not streamed)
            for start in range(start_row, len(array), chunk_rows):
                if lines is not None:
                    lines.clear()
                yield [_json_record(value, f"{name} record {start + i}", keep)
                       for i, value in enumerate(array[start:start + chunk_rows])]
            return
        chunk: list = []
        numbers: list = []
        for line_no, line in itertools.chain(head, numbered):
            if start_row:
                start_row -= 1
                continue
            try:
                record = _json_record(_JSON.decode(_text(line)), f"{name} line {line_no}", keep)
            except json.JSONDecodeError as exc:
                record = {_BAD_RECORD: f"{name} line {line_no}: not valid JSON ({exc.msg})"}
            chunk.append(record)
            numbers.append(line_no)
            if len(chunk) == chunk_rows:
                _line_numbers(lines, numbers)
                yield chunk
                chunk, numbers = [], []
        if chunk:
            _line_numbers(lines, numbers)
            yield chunk


def _line_numbers(lines: list | None, numbers: list) -> None:
    """Refill the caller's ``lines`` (if any) with the line numbers of the chunk about to be yielded."""
    if lines is not None:
        lines[:] = numbers


def _text(data: bytes) -> str:
    """Bytes of a JSON lines file as text: a leading byte-order mark dropped, a bad byte as U+FFFD
    (it spoils its record only)."""
    return data.decode("utf-8-sig", errors="replace")


def _numbered_lines(f) -> Iterator[tuple[int, bytes]]:
    """The lines of the binary file ``f`` that are not blank, with their numbers from 1; a UTF-8
    byte-order mark at the start of the file is dropped."""
    for line_no, line in enumerate(f, start=1):
        if line_no == 1 and line.startswith(codecs.BOM_UTF8):
            line = line[len(codecs.BOM_UTF8):]
        if line.strip():
            yield line_no, line


class _Repeated(dict):
    """A JSON object that gave a key more than once (``twice``: those keys); json keeps the last value."""

    twice: list


def _json_pairs(pairs: list) -> dict:
    """``object_pairs_hook`` of the records' decoder: a dict, a :class:`_Repeated` where a key comes twice."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set = set()
        value = _Repeated(value)
        value.twice = [k for k, _ in pairs if k in seen or seen.add(k)]
    return value


#: The decoder of JSON records: as ``json.loads``, a record with a key given twice marked (flagged, not read as
#: its last value: ``{"seat": "S", "seat": "N"}`` is no hand's context).
_JSON = json.JSONDecoder(object_pairs_hook=_json_pairs)


def _json_record(value, where: str, keep=()):
    """A parsed JSON record; a value that is not an object, an object with a key given twice, or one with a
    key that is neither read nor kept (``keep``), as a flagged record naming ``where``."""
    if type(value) is _Repeated:
        return {_BAD_RECORD: f"{where}: the key {value.twice[0]!r} is given twice"}
    if isinstance(value, dict):
        if value.keys() <= _READ_KEYS or value.keys() <= _READ_KEYS.union(keep):
            return value
        try:
            check_columns(value, where, keep=keep, what="key")
        except ValueError as exc:
            return {_BAD_RECORD: str(exc)}
        return value
    return {_BAD_RECORD: f"{where}: not a JSON object (a JSON {_JSON_TYPES.get(type(value), 'value')})"}


#: The keys of a JSON record read or skipped (a result's) without a word.
_READ_KEYS = frozenset(RECORD_KEYS) | RESULT_COLUMNS

_JSON_TYPES = {list: "array", str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}


def _json_array(f, head: list, name: str) -> list | None:
    """The records of a file that is one JSON array, else None; ``head``: its first two non-blank
    lines, the first starting with ``[``.

    The first line a whole JSON value and more lines after it: JSON lines whose first record
    is not an object (flagged; the others read as usual).  The first line a whole array and
    nothing after it: a one-line array of records.  Otherwise the array spans lines and the
    file is read whole.

    Raises
    ------
    ValueError
        The file is not valid JSON (naming the line).
    """
    try:
        value = _JSON.decode(_text(head[0][1]))
    except json.JSONDecodeError:
        pass
    else:
        return value if len(head) == 1 and isinstance(value, list) else None
    f.seek(0)
    try:
        return _JSON.decode(_text(f.read()))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{name} line {exc.lineno}: not valid JSON ({exc.msg})") from None


def _no_duplicates(path, names, wanted) -> None:
    """Raise ValueError when a column of ``wanted`` appears more than once in ``names``: which of
    the two holds the hands is not for the reader to guess."""
    twice = sorted({k for k in names if k in wanted and names.count(k) > 1})
    if twice:
        raise ValueError(f"{path}: the column{'s' if len(twice) > 1 else ''} {', '.join(repr(k) for k in twice)} "
                         f"appear{'' if len(twice) > 1 else 's'} more than once among its columns")


def _read_csv(path, chunk_rows: int, start_row: int, keep=(), lines: list | None = None) -> Iterator[list[dict]]:
    """Chunks of records; ``lines``, when given, is refilled before each chunk with the line on which
    each of its records starts (from 1, the header's line counted)."""
    name = Path(path).name
    # The csv module refuses fields over 131,072 characters by default, and after refusing one it
    # cannot find where the record ends (a quoted field may span lines): long fields are read, and
    # the parser flags the record as any other bad hand.
    csv.field_size_limit(max(csv.field_size_limit(), _CSV_FIELD_LIMIT))
    with open(path, newline="", encoding="utf-8-sig", errors="replace") as f:
        reader = csv.reader(f)
        try:
            header = next((row for row in reader if row), None)  # the first line that is not empty
        except csv.Error as exc:
            raise ValueError(f"{path} line {reader.line_num}: {exc}") from None
        if header is None:
            return  # only empty lines: no records, as a JSON lines file of blank lines
        names = [h.strip() for h in header]
        if "hand" not in names:
            raise _missing_hand(path, names)
        _no_duplicates(path, names, RECORD_KEYS + tuple(keep))
        read = [(names.index(k), k) for k in RECORD_KEYS + tuple(keep) if k in names]
        chunk: list = []
        numbers: list = []
        while True:
            first = reader.line_num + 1  # the line this record starts on (a quoted field may span lines)
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                # Where the next record starts is unknown: the file stops here, named, rather than
                # its later rows being read out of line with its records.
                raise ValueError(f"{path} line {reader.line_num}: {exc}") from None
            if not row:
                continue
            if start_row:
                start_row -= 1
                continue
            if len(row) != len(names):
                # A field the header does not name, or one missing (a cut line): the row is flagged rather
                # than a field dropped or a value defaulted.
                chunk.append({_BAD_RECORD: f"{name} line {reader.line_num}: {len(row)} field{'s' if len(row) != 1 else ''}, "
                                         f"the header names {len(names)}"})
            else:
                chunk.append({k: row[j] for j, k in read})
            numbers.append(first)
            if len(chunk) == chunk_rows:
                _line_numbers(lines, numbers)
                yield chunk
                chunk, numbers = [], []
        if chunk:
            _line_numbers(lines, numbers)
            yield chunk


#: The csv module's field size limit while fastscore reads CSV (its default is 131,072).
_CSV_FIELD_LIMIT = 2**31 - 1
