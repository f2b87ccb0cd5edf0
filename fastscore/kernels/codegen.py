"""Compiled functions generated from a list of functions: the row evaluators of :mod:`fastscore.kernels.rows`.

numba cannot loop over a tuple of functions of different types, so a function
that calls each row predicate in turn is written as Python source here and
compiled.  numba's disk cache needs a source file to key a function on: the
source is compiled under this file's name (an ``exec`` from no file cannot
be cached), and kept in the function's ``__doc__``.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_inline

__all__ = ["evaluator_source", "evaluator"]


#: The compiled functions of :func:`high_source`, by their rows, units shifts and gates (made once a process).
_HIGH: dict = {}
#: Rows of the high word per block of :func:`high_source`: a block whose rows are none in force is skipped.
HIGH_BLOCK = 8


def _high_mask(rows, word_bits: int) -> int:
    return sum(1 << (r - word_bits) for r in rows)


def _row_lines(r: int, unit_shifts: dict, word: str, shift: int, indent: str) -> list:
    lines = [f"{indent}u{r} = np.int64(_p{r}(f))", f"{indent}{word} |= np.int64(u{r} != 0) << {shift}"]
    if r in unit_shifts:
        lines.append(f"{indent}units |= u{r} << {unit_shifts[r]}")
    return lines


def _gated(rows, gates: dict) -> list:
    """``rows`` as groups ``(gate name or None, rows)``: the rows of one gate together, at the place of its
    first row; the others one group each."""
    groups: list = []
    where: dict = {}
    for r in rows:
        g = gates.get(r)
        if g is None:
            groups.append((None, [r]))
        elif g in where:
            groups[where[g]][1].append(r)
        else:
            where[g] = len(groups)
            groups.append((g, [r]))
    return groups


def evaluator_source(name: str, bits, unit_shifts: dict, word_bits: int, gates: dict | None = None) -> str:
    """Python source of :func:`evaluator`'s function ``name``: predicate ``_p{r}`` for each ``r`` of ``bits``
    below ``word_bits`` (those of the gate named ``g``, ``gates[r] = g``, only when ``_g{g}(f)``), and a call of
    ``_high(f, hi)`` when ``hi`` has one of the others."""
    gates = gates or {}
    lines = [f"def {name}(f, hi):", "    rows = np.int64(0)", "    rows_hi = np.int64(0)", "    units = np.int64(0)"]
    for g, rows in _gated([r for r in bits if r < word_bits], gates):
        indent = "    "
        if g is not None:
            lines.append(f"    if _g{g}(f):")
            indent = "        "
        for r in rows:
            lines += _row_lines(r, unit_shifts, "rows", r, indent)
    high = [r for r in bits if r >= word_bits]
    if high:
        lines += [f"    if hi & {_high_mask(high, word_bits)}:", "        rows_hi, high_units = _high(f, hi)",
                  "        units |= high_units"]
    lines.append("    return rows, rows_hi, units")
    return "\n".join(lines) + "\n"


def high_source(name: str, bits, unit_shifts: dict, word_bits: int, gates: dict | None = None) -> str:
    """Python source of the function ``name`` that :func:`evaluator`'s function calls for the rows of ``bits``
    from ``word_bits`` on: ``(rows_hi, units)``.  The rows of the gate named ``g`` (``gates[r] = g``) form a
    block run only when ``_g{g}(f)``; the others blocks of :data:`HIGH_BLOCK` rows; each block runs only when
    ``hi`` has one of its rows."""
    gates = gates or {}
    high = [r for r in bits if r >= word_bits]
    blocks = []
    for g, rows in _gated(high, gates):
        if g is None and blocks and blocks[-1][0] is None and len(blocks[-1][1]) < HIGH_BLOCK:
            blocks[-1][1].extend(rows)
        else:
            blocks.append((g, list(rows)))
    lines = [f"def {name}(f, hi):", "    rows_hi = np.int64(0)", "    units = np.int64(0)"]
    for g, block in blocks:
        test = f"hi & {_high_mask(block, word_bits)}" + ("" if g is None else f" and _g{g}(f)")
        lines.append(f"    if {test}:")
        for r in block:
            lines += _row_lines(r, unit_shifts, "rows_hi", r - word_bits, "        ")
    lines.append("    return rows_hi, units")
    return "\n".join(lines) + "\n"


def evaluator(name: str, predicates: dict, unit_shifts: dict, word_bits: int, inline: bool = False,
              gates: dict | None = None):
    """A compiled ``name(f, hi) -> (rows, rows_hi, units)`` that calls every predicate on the record ``f``.

    Parameters
    ----------
    name : str
        The function's name (its numba cache entry is named after it).
    predicates : dict
        Bit index r -> compiled predicate ``p(f)`` returning int64 units (0: the row does not fire).
    unit_shifts : dict
        Bit index r -> the shift of row r's units in the units word, for the rows that count units.
    word_bits : int
        Bits of a row word: row r is bit r of ``rows`` below it, bit ``r - word_bits`` of ``rows_hi`` from it.
    inline : bool
        ``jit_inline`` (inlined into each compiled caller: for the hot call
        sites) rather than ``jit`` (one compiled function, called).
    gates : dict, optional
        Bit index r -> row r's gate, a compiled ``gate(f)`` (0 or 1) that holds whenever the predicate fires:
        the rows of one gate run only when it holds (for rows that seldom fire and share a cheap test).

    Returns
    -------
    function
        ``(f, hi) -> (rows int64, rows_hi int64, units int64)``: the bit of row r set in ``rows`` or
        ``rows_hi`` when predicate r fires, each counting row's units at its shift of ``units``. The
        predicates of the ``rows_hi`` rows run only when ``hi`` has a row of theirs (a table with such a row in
        force: ``hi`` is the high row word of the rows in force; ``rows_hi`` is 0 without them), in a
        function of their own that the evaluator calls, in blocks skipped when none of their rows is in force.
        Straight-line code but for the gates; the predicates are inlined when they are ``jit_inline``.
    """
    bits = tuple(predicates)
    gates = gates or {}
    gate_of = {r: gates[r].__name__ for r in bits if r in gates}
    namespace = {"np": np, **{f"_p{r}": predicates[r] for r in bits},
                 **{f"_g{name}": gates[r] for r, name in gate_of.items()}}
    high_rows = tuple((r, unit_shifts.get(r), gate_of.get(r)) for r in bits if r >= word_bits)
    if high_rows:
        # The rows of the high word in a function of their own, called (not inlined): a table without them
        # (the LRC table) runs the evaluator without their code in its loops.  Evaluators of the same rows
        # share it: one compile.
        if high_rows not in _HIGH:
            high = high_source(f"{name}_high", bits, unit_shifts, word_bits, gate_of)
            exec(compile(high, __file__, "exec"), namespace)
            func = namespace[f"{name}_high"]
            func.__module__ = __name__
            func.__doc__ = "Generated row evaluator of the high row word.\n\n" + high
            _HIGH[high_rows] = jit(func)
        namespace["_high"] = _HIGH[high_rows]
    source = evaluator_source(name, bits, unit_shifts, word_bits, gate_of)
    exec(compile(source, __file__, "exec"), namespace)
    func = namespace[name]
    func.__module__ = __name__
    func.__doc__ = "Generated row evaluator.\n\n" + source
    return jit_inline(func) if inline else jit(func)
