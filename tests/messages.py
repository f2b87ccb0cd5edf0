"""The messages of bad rows as fastscore writes them for a file: ``<file> line <n>:`` for JSON lines and CSV."""

from __future__ import annotations

import re


def as_read_from(records: list[dict], name: str, first_line: int) -> list[dict]:
    """``records`` (results of a batch built from records, whose messages say ``row i:``) as read from the
    file ``name``, one record a line from ``first_line`` (1 for JSON lines, 2 after a CSV header)."""
    out = []
    for r in records:
        r = dict(r)
        m = re.match(r"row (\d+): (.*)", r.get("error") or "", re.S)
        if m:
            r["error"] = f"{name} line {first_line + int(m.group(1))}: {m.group(2)}"
        out.append(r)
    return out
