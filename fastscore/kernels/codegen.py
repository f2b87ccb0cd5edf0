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


def evaluator_source(name: str, bits, unit_shifts: dict) -> str:
    """Python source of :func:`evaluator`'s function ``name``: predicate ``_p{r}`` for each ``r`` of ``bits``."""
    lines = [f"def {name}(f):", "    rows = np.int64(0)", "    units = np.int64(0)"]
    for r in bits:
        lines.append(f"    u{r} = np.int64(_p{r}(f))")
        lines.append(f"    rows |= np.int64(u{r} != 0) << {r}")
        if r in unit_shifts:
            lines.append(f"    units |= u{r} << {unit_shifts[r]}")
    lines.append("    return rows, units")
    return "\n".join(lines) + "\n"


def evaluator(name: str, predicates: dict, unit_shifts: dict, inline: bool = False):
    """A compiled ``name(f) -> (rows, units)`` that calls every predicate on the record ``f``.

    Parameters
    ----------
    name : str
        The function's name (its numba cache entry is named after it).
    predicates : dict
        Bit index r -> compiled predicate ``p(f)`` returning int64 units (0: the row does not fire).
    unit_shifts : dict
        Bit index r -> the shift of row r's units in the units word, for the rows that count units.
    inline : bool
        ``jit_inline`` (inlined into each compiled caller: for the hot call
        sites) rather than ``jit`` (one compiled function, called).

    Returns
    -------
    function
        ``(f) -> (rows int64, units int64)``: bit r of ``rows`` set when
        predicate r fires, each counting row's units at its shift of ``units``.
        Straight-line code; the predicates are inlined when they are ``jit_inline``.
    """
    bits = tuple(predicates)
    source = evaluator_source(name, bits, unit_shifts)
    namespace = {"np": np, **{f"_p{r}": predicates[r] for r in bits}}
    exec(compile(source, __file__, "exec"), namespace)
    func = namespace[name]
    func.__module__ = __name__
    func.__doc__ = "Generated row evaluator.\n\n" + source
    return jit_inline(func) if inline else jit(func)
