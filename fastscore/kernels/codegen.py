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


#: The compiled functions of :func:`high_source`, by their rows and units shifts (made once a process).
_HIGH: dict = {}
#: Rows of the high word per block of :func:`high_source`: a block whose rows are none in force is skipped.
HIGH_BLOCK = 8


def _high_mask(rows, word_bits: int) -> int:
    return sum(1 << (r - word_bits) for r in rows)


def evaluator_source(name: str, bits, unit_shifts: dict, word_bits: int) -> str:
    """Python source of :func:`evaluator`'s function ``name``: predicate ``_p{r}`` for each ``r`` of ``bits``
    below ``word_bits``, and a call of ``_high(f, hi)`` when ``hi`` has one of the others."""
    lines = [f"def {name}(f, hi):", "    rows = np.int64(0)", "    rows_hi = np.int64(0)", "    units = np.int64(0)"]
    for r in bits:
        if r >= word_bits:
            continue
        lines.append(f"    u{r} = np.int64(_p{r}(f))")
        lines.append(f"    rows |= np.int64(u{r} != 0) << {r}")
        if r in unit_shifts:
            lines.append(f"    units |= u{r} << {unit_shifts[r]}")
    high = [r for r in bits if r >= word_bits]
    if high:
        lines += [f"    if hi & {_high_mask(high, word_bits)}:", "        rows_hi, high_units = _high(f, hi)",
                  "        units |= high_units"]
    lines.append("    return rows, rows_hi, units")
    return "\n".join(lines) + "\n"


def high_source(name: str, bits, unit_shifts: dict, word_bits: int) -> str:
    """Python source of the function ``name`` that :func:`evaluator`'s function calls for the rows of ``bits``
    from ``word_bits`` on: ``(rows_hi, units)``, in blocks of :data:`HIGH_BLOCK` rows, each run only when
    ``hi`` has one of its rows."""
    high = [r for r in bits if r >= word_bits]
    lines = [f"def {name}(f, hi):", "    rows_hi = np.int64(0)", "    units = np.int64(0)"]
    for k in range(0, len(high), HIGH_BLOCK):
        block = high[k:k + HIGH_BLOCK]
        lines.append(f"    if hi & {_high_mask(block, word_bits)}:")
        for r in block:
            lines.append(f"        u{r} = np.int64(_p{r}(f))")
            lines.append(f"        rows_hi |= np.int64(u{r} != 0) << {r - word_bits}")
            if r in unit_shifts:
                lines.append(f"        units |= u{r} << {unit_shifts[r]}")
    lines.append("    return rows_hi, units")
    return "\n".join(lines) + "\n"


def evaluator(name: str, predicates: dict, unit_shifts: dict, word_bits: int, inline: bool = False):
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

    Returns
    -------
    function
        ``(f, hi) -> (rows int64, rows_hi int64, units int64)``: the bit of row r set in ``rows`` or
        ``rows_hi`` when predicate r fires, each counting row's units at its shift of ``units``. The
        predicates of the ``rows_hi`` rows run only when ``hi`` has a row of theirs (a table with such a row in
        force: ``hi`` is the high row word of the rows in force; ``rows_hi`` is 0 without them), in a
        function of their own that the evaluator calls, in blocks skipped when none of their rows is in force.
        Straight-line code; the predicates are inlined when they are ``jit_inline``.
    """
    bits = tuple(predicates)
    namespace = {"np": np, **{f"_p{r}": predicates[r] for r in bits}}
    high_rows = tuple((r, unit_shifts.get(r)) for r in bits if r >= word_bits)
    if high_rows:
        # The rows of the high word in a function of their own, called (not inlined): a table without them
        # (the LRC table) runs the evaluator without their code in its loops.  Evaluators of the same rows
        # share it: one compile.
        if high_rows not in _HIGH:
            high = high_source(f"{name}_high", bits, unit_shifts, word_bits)
            exec(compile(high, __file__, "exec"), namespace)
            func = namespace[f"{name}_high"]
            func.__module__ = __name__
            func.__doc__ = "Generated row evaluator of the high row word.\n\n" + high
            _HIGH[high_rows] = jit(func)
        namespace["_high"] = _HIGH[high_rows]
    source = evaluator_source(name, bits, unit_shifts, word_bits)
    exec(compile(source, __file__, "exec"), namespace)
    func = namespace[name]
    func.__module__ = __name__
    func.__doc__ = "Generated row evaluator.\n\n" + source
    return jit_inline(func) if inline else jit(func)
