"""Rule tables (profiles): which rows are in force and what they are worth, as data, loaded and validated.

The rows themselves (one predicate each) are the catalog of :mod:`fastscore.kernels.rows`; a table
names the rows in force with their values.  The packaged tables are profiles known by name
(:data:`PROFILES`): ``lrc``, the default (``rules.toml``; docs/rules.md), and the Taiwanese tai
tables of ``profiles/`` (docs/profiles/).  :func:`load_rules` reads a profile or a user's file,
checks it, and returns a :class:`RuleTable` whose arrays are passed into the scoring kernels as arguments.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from .kernels.evaluate import pack_rules
from .kernels.features import SHAPE_NAMES, Shape
from .profiles import PROFILES
from .kernels.rows import DEALER_ROWS, HAND, MAX_UNITS, REGISTRY, ROW_IDS, SHAPE_ROWS, TIERED_ROWS, WORD_BITS

__all__ = ["ROW_IDS", "PROFILES", "profile", "Shape", "RuleTable", "RuleTableError", "load_rules", "default_rules",
           "resolve_rules"]

# The rows and shapes are defined by the registry of :mod:`fastscore.kernels.rows`; this module holds their values.
N_ROWS = len(ROW_IDS)



class RuleTableError(ValueError):
    """A rule table that cannot be used; the message names the row and the problem."""


def _row_words(mask: np.ndarray) -> np.ndarray:
    """``(K, 2) int64``: each line of the ``(K, R)`` bool ``mask`` as the two row words of its rows
    (:data:`fastscore.kernels.rows.WORD_BITS`)."""
    words = np.zeros((mask.shape[0], 2), dtype=np.int64)
    for w in range(2):
        part = mask[:, w * WORD_BITS:(w + 1) * WORD_BITS]
        words[:, w] = (part * (1 << np.arange(part.shape[1], dtype=np.int64))).sum(axis=1)
    return words


@dataclass(frozen=True, eq=False)
class RuleTable:
    """A validated rule table, as arrays for the kernels (read-only: a table is a value).

    Attributes
    ----------
    points : ndarray, shape (R,), int64
        Points per unit of each row of the catalog, in :data:`ROW_IDS` order (0 for a row not in force).
    tiers : ndarray, shape (R, 3), int64
        Points for 1, 2, 3 units of tiered rows (``nico_quad_pairs``); 0 elsewhere.
    replaces : ndarray, shape (R, R), bool
        ``replaces[a, b]``: row ``b`` is not scored when row ``a`` scores.
    order : ndarray, shape (R,), int64
        Rows ordered so that every row comes before the rows it replaces.
    shape_mask : ndarray, shape (4, R), bool
        ``shape_mask[shape, row]``: the row can score in that shape (section 5).
    minimum : ndarray, shape (4,), int64
        Round minimum by round wind E S W N (section 6.2).
    chicken_points : int
        The ``points`` value that makes a Chicken.
    sources : dict
        Row id -> where the row comes from, e.g. ``"LRC rules, section 4.1 [seed]"`` (``"user"`` when
        the file gives none), for display.
    path : str
        Where the table was read from.
    conditions : dict
        Row id -> when the row scores, in one line (``""`` when the file gives none), for display.
    in_force : ndarray, shape (R,), bool
        The rows the table names: only they score, and they are the columns of its row points
        (:attr:`row_ids`).
    name : str
        The profile's name (``[profile] name``; the file's stem when it gives none).
    title : str
        One line saying what the table is (``[profile] title``).
    chicken_rule : bool
        The Chicken rule (LRC rules, section 6.2) is in force (``[totals] chicken``).
    pay_base, pay_unit : int
        The payout of a legal win is ``pay_base + pay_unit x total`` (plus the LRC dealer rows for East)
        (``[payout] base`` and ``unit``; 0 and 1 by default).
    win_shapes : ndarray, shape (4,), bool
        ``win_shapes[shape]``: a hand that completes that shape (LRC rules section 3) is a win under this
        table (``[win] shapes``; every shape by default). The standard shape always is.
    double : bool
        The double interpretation (``[totals] double_interpretation``; docs/rules.md, "Totals"): a hand
        that reads both as Nico Nico and as a standard hand scores both readings added, the Nico Nico
        reading and the best standard one.  False by default.
    counted_once : ndarray, shape (R,), bool
        ``counted_once[r]``: in a double interpretation row ``r`` counts once when both readings score it
        (``[totals] counted_once``: the rows of the whole hand, such as flowers and events).
    """

    points: np.ndarray
    tiers: np.ndarray
    replaces: np.ndarray
    order: np.ndarray
    shape_mask: np.ndarray
    minimum: np.ndarray
    chicken_points: int
    sources: dict = field(repr=False)
    path: str = ""
    conditions: dict = field(default_factory=dict, repr=False)
    in_force: np.ndarray = None
    name: str = ""
    title: str = ""
    chicken_rule: bool = True
    pay_base: int = 0
    pay_unit: int = 1
    win_shapes: np.ndarray = None
    double: bool = False
    counted_once: np.ndarray = None

    def __post_init__(self):
        # A table is a value: its arrays are read-only copies, so that an edit cannot reach a kernel
        # through one cached view (``kernel_args``, ``packed``) and not another, nor change the
        # packaged table that ``load_rules`` hands out again.  Change a table with a new file.
        if self.in_force is None:
            object.__setattr__(self, "in_force", np.ones(N_ROWS, dtype=np.bool_))
        if self.win_shapes is None:
            object.__setattr__(self, "win_shapes", np.ones(len(Shape), dtype=np.bool_))
        if self.counted_once is None:
            object.__setattr__(self, "counted_once", np.zeros(N_ROWS, dtype=np.bool_))
        for name in ("points", "tiers", "replaces", "order", "shape_mask", "minimum", "in_force", "win_shapes",
                     "counted_once"):
            array = np.array(getattr(self, name))
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    @cached_property
    def row_ids(self) -> tuple[str, ...]:
        """The ids of the rows in force, in :data:`ROW_IDS` order: the columns of this table's row points
        (``BatchResult.row_points``, the ``row_<id>`` output columns)."""
        return tuple(ROW_IDS[r] for r in np.flatnonzero(self.in_force))

    @cached_property
    def kernel_args(self) -> tuple:
        """The rule arrays as the kernels take them, rows as bits of two int64 row words.

        (points (R,) int64, tiers (R, 3) int64, replacers (K,) int64 (rows that
        replace others, replacing-first), replaces_bits (R, 2) int64, shape_bits
        (4, 2) int64 (the two row words of :mod:`fastscore.kernels.rows`), minimum (4,) int64, chicken_points (-1 without the Chicken rule),
        columns (R,) int64 (each row's column of a row-points array, -1 for a row not in force),
        pay_base, pay_unit, win_shapes (bit s set for each shape s that wins, :attr:`win_shapes_bits`),
        double (0 or 1: :attr:`double`), counted_once (2,) int64 (the two row words of :attr:`counted_once`))
        """
        replaces_bits = _row_words(self.replaces)
        # A table may name a shape that a row's predicate does not read (rows.Row.shapes): it never fires there.
        shape_bits = _row_words(self.shape_mask) & SHAPE_ROWS
        replacers = np.array([r for r in self.order if replaces_bits[r].any()], dtype=np.int64)
        columns = np.where(self.in_force, np.cumsum(self.in_force) - 1, -1).astype(np.int64)
        chicken = self.chicken_points if self.chicken_rule else -1
        once = _row_words(self.counted_once.reshape(1, N_ROWS))[0]
        return (self.points, self.tiers, replacers, replaces_bits, shape_bits, self.minimum, chicken, columns,
                self.pay_base, self.pay_unit, self.win_shapes_bits, int(self.double), once)

    @cached_property
    def win_shapes_bits(self) -> int:
        """:attr:`win_shapes` as an int, bit ``s`` for shape ``s`` (what the kernels take; 15: every shape)."""
        return int(sum(1 << s for s in np.flatnonzero(self.win_shapes)))

    @cached_property
    def packed(self) -> np.ndarray:
        """``(K,) int64``: :attr:`kernel_args` packed into the one array that the kernels take (the batch
        kernels and the one-hand kernels; :func:`fastscore.kernels.evaluate.pack_rules`, run as Python here:
        once per table, and a cold start then does not compile it)."""
        return getattr(pack_rules, "py_func", pack_rules)(self.kernel_args)  # plain already with NUMBA_DISABLE_JIT

    def value(self, row_id: str) -> int:
        """Points per unit of one row (first tier for tiered rows)."""
        i = ROW_IDS.index(row_id)
        return int(self.tiers[i, 0] if row_id in TIERED_ROWS else self.points[i])

    def to_dict(self) -> dict:
        """The table as plain data (what ``fastscore rules --json`` prints).

        Returns
        -------
        dict
            ``path``; ``profile``: ``name`` and ``title``; ``totals``: ``minimum`` (round wind
            ``"E" "S" "W" "N"`` -> points), ``chicken`` (the Chicken rule in force) and ``chicken_points``;
            ``double_interpretation`` (bool) and ``counted_once`` (row ids);
            ``payout``: ``base`` and ``unit``; ``win``: ``shapes`` (names of the shapes that win); ``rows``: one dict per row in force in :attr:`row_ids`
            order with ``id``, ``points`` (int, or a list of the tiers of a tiered row), ``replaces`` and
            ``shapes`` (lists of names), ``condition`` and ``source`` (text).
        """
        rows = []
        for i in np.flatnonzero(self.in_force):
            rid = ROW_IDS[i]
            rows.append({
                "id": rid,
                "points": [int(v) for v in self.tiers[i]] if rid in TIERED_ROWS else int(self.points[i]),
                "replaces": [ROW_IDS[j] for j in np.flatnonzero(self.replaces[i])],
                "shapes": [SHAPE_NAMES[k] for k in np.flatnonzero(self.shape_mask[:, i])],
                "condition": self.conditions.get(rid, ""),
                "source": self.sources.get(rid, ""),
            })
        return {"path": self.path,
                "profile": {"name": self.name, "title": self.title},
                "totals": {"minimum": dict(zip("ESWN", (int(v) for v in self.minimum))),
                           "chicken": bool(self.chicken_rule), "chicken_points": int(self.chicken_points),
                           "double_interpretation": bool(self.double),
                           "counted_once": [ROW_IDS[r] for r in np.flatnonzero(self.counted_once)]},
                "payout": {"base": int(self.pay_base), "unit": int(self.pay_unit)},
                "win": {"shapes": [SHAPE_NAMES[k] for k in np.flatnonzero(self.win_shapes)]},
                "rows": rows}


#: Bounds of every value in the table, so that sums stay far from integer overflow.
MAX_POINTS = 10_000


def _int(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleTableError(f"{where}: points must be an integer, got {value!r}")
    if not 0 <= value <= MAX_POINTS:
        raise RuleTableError(f"{where}: points must be between 0 and {MAX_POINTS}, got {value!r}")
    return value


def _names(entry: dict, key: str, default, where: str) -> list:
    value = entry.get(key, default)
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise RuleTableError(f"{where}: {key} must be a list of names, got {value!r}")
    return list(value)


def _text(entry: dict, key: str, default: str, where: str) -> str:
    value = entry.get(key, default)
    if not isinstance(value, str):
        raise RuleTableError(f"{where}: {key} must be text, got {value!r}")
    return value


#: The keys a rules file may hold, by table (``""``: the top level; ``row``: each ``[[row]]``).  Any other key
#: is refused, naming it: a misspelt key (``replace``, ``chiken``) read as absent would change scores silently.
RULE_FILE_KEYS = {
    "": ("row", "totals", "payout", "win", "profile"),
    "row": ("id", "points", "replaces", "shapes", "source", "condition"),
    "totals": ("minimum", "chicken_points", "chicken", "double_interpretation", "counted_once"),
    "payout": ("base", "unit"),
    "win": ("shapes",),
    "profile": ("name", "title"),
}


def _check_keys(entry: dict, table: str, where: str) -> None:
    """Refuse a key of ``entry`` that :data:`RULE_FILE_KEYS` does not list for ``table``, naming it."""
    known = RULE_FILE_KEYS[table]
    for key in entry:
        if key not in known:
            place = "at the top level" if not table else ("in a [[row]]" if table == "row" else f"in [{table}]")
            raise RuleTableError(f"{where}: unknown key {key!r} {place} (known: {', '.join(known)})")


def _parse(data: dict, path: str) -> RuleTable:
    for table in ("totals", "payout", "win", "profile"):
        _check_keys(_table(data, table, path), table, path)
    _check_keys(data, "", path)
    rows = data.get("row")
    if not isinstance(rows, list):
        raise RuleTableError(f"{path}: no [[row]] entries")
    by_id: dict[str, dict] = {}
    for entry in rows:
        if not isinstance(entry, dict):
            raise RuleTableError(f"{path}: every [[row]] must be a table with id and points, got {entry!r}")
        rid = entry.get("id")
        if rid not in ROW_IDS:
            raise RuleTableError(f"{path}: unknown row id {rid!r} (known: {', '.join(ROW_IDS)})")
        _check_keys(entry, "row", f"{path}: row {rid!r}")
        if rid in by_id:
            raise RuleTableError(f"{path}: row {rid!r} appears twice")
        by_id[rid] = entry
    if not by_id:
        raise RuleTableError(f"{path}: no [[row]] entries")

    points = np.zeros(N_ROWS, dtype=np.int64)
    tiers = np.zeros((N_ROWS, 3), dtype=np.int64)
    replaces = np.zeros((N_ROWS, N_ROWS), dtype=np.bool_)
    shape_mask = np.zeros((len(Shape), N_ROWS), dtype=np.bool_)
    sources, conditions = {}, {}
    in_force = np.array([rid in by_id for rid in ROW_IDS], dtype=np.bool_)
    for i, rid in enumerate(ROW_IDS):
        if rid not in by_id:
            continue  # not in force: never scores, no column
        entry = by_id[rid]
        value = entry.get("points")
        if rid in TIERED_ROWS:
            if not isinstance(value, list) or len(value) != TIERED_ROWS[rid]:
                raise RuleTableError(f"{path}: row {rid!r}: points must be a list of {TIERED_ROWS[rid]} integers")
            tiers[i] = [_int(v, f"{path}: row {rid!r}") for v in value]
        else:
            points[i] = _int(value, f"{path}: row {rid!r}")
        for target in _names(entry, "replaces", [], f"{path}: row {rid!r}"):
            if target not in ROW_IDS:
                raise RuleTableError(f"{path}: row {rid!r} replaces unknown row {target!r}")
            replaces[i, ROW_IDS.index(target)] = True
        for name in _names(entry, "shapes", REGISTRY[i].shapes, f"{path}: row {rid!r}"):
            if name not in SHAPE_NAMES:
                raise RuleTableError(f"{path}: row {rid!r}: unknown shape {name!r} (known: {', '.join(SHAPE_NAMES)})")
            shape_mask[SHAPE_NAMES.index(name), i] = True
        sources[rid] = _text(entry, "source", "user", f"{path}: row {rid!r}")
        conditions[rid] = _text(entry, "condition", "", f"{path}: row {rid!r}")

    totals = _table(data, "totals", path)
    minimum = totals.get("minimum", [20, 22, 24, 26])
    if not isinstance(minimum, list) or len(minimum) != 4:
        raise RuleTableError(f"{path}: [totals] minimum must list 4 integers (E S W N rounds)")
    minimum = np.array([_int(v, f"{path}: [totals] minimum") for v in minimum], dtype=np.int64)
    chicken = _int(totals.get("chicken_points", 1), f"{path}: [totals] chicken_points")
    chicken_rule = _flag(totals, "chicken", True, f"{path}: [totals]")
    payout = _table(data, "payout", path)
    pay_base = _int(payout.get("base", 0), f"{path}: [payout] base")
    pay_unit = _int(payout.get("unit", 1), f"{path}: [payout] unit")
    win_shapes = _win_shapes(_table(data, "win", path), path)
    _check_dealer_rows(replaces, shape_mask, in_force, path)
    double, counted_once = _double(totals, in_force, win_shapes, path)
    meta = _table(data, "profile", path)
    name = _text(meta, "name", Path(path).stem, f"{path}: [profile]")
    title = _text(meta, "title", "", f"{path}: [profile]")
    _check_ranges(points, tiers, path, pay_base, pay_unit, 2 if double else 1)
    return RuleTable(points, tiers, replaces, _replacement_order(replaces, path), shape_mask, minimum, chicken, sources,
                     path, conditions, in_force, name, title, chicken_rule, pay_base, pay_unit, win_shapes, double,
                     counted_once)


def _check_dealer_rows(replaces: np.ndarray, shape_mask: np.ndarray, in_force: np.ndarray, path: str) -> None:
    """The base and the LRC dealer rows (``mahjong_base``, ``east_wins``, ``streak_bonus``) are added to every
    win after the points (section 6), whatever its shape: each takes every shape.  Only the base may be
    replaced, and only by a row of the whole hand (scope ``hand``) that every shape takes and no row
    replaces, so that every reading of a hand (and both readings of a double interpretation) keeps the base
    or loses it together."""
    for rid in DEALER_ROWS:
        i = ROW_IDS.index(rid)
        if in_force[i] and not shape_mask[:, i].all():
            raise RuleTableError(f"{path}: row {rid!r} is added to every win: it takes every shape "
                                 f"({', '.join(SHAPE_NAMES)}); leave its shapes out")
        for j in np.flatnonzero(replaces[:, i] & in_force):
            other = ROW_IDS[j]
            if rid != "mahjong_base":
                raise RuleTableError(f"{path}: row {other!r} replaces {rid!r}, which no row may replace "
                                     f"(it is added to East's win whatever scores)")
            if REGISTRY[j].scope != HAND or not shape_mask[:, j].all() or (replaces[:, j] & in_force).any():
                raise RuleTableError(f"{path}: row {other!r} replaces 'mahjong_base': only a row of the whole hand "
                                     f"that every shape takes and no row replaces may replace the base")


def _double(totals: dict, in_force: np.ndarray, win_shapes: np.ndarray, path: str) -> tuple[bool, np.ndarray]:
    """``[totals] double_interpretation`` and ``counted_once``: the flag and the (R,) bool rows counted once."""
    double = _flag(totals, "double_interpretation", False, f"{path}: [totals]")
    once = np.zeros(N_ROWS, dtype=np.bool_)
    for rid in _names(totals, "counted_once", [], f"{path}: [totals]"):
        if rid not in ROW_IDS:
            raise RuleTableError(f"{path}: [totals] counted_once: unknown row id {rid!r}")
        if not in_force[ROW_IDS.index(rid)]:
            raise RuleTableError(f"{path}: [totals] counted_once: row {rid!r} is not in force (no [[row]] names it)")
        if once[ROW_IDS.index(rid)]:
            raise RuleTableError(f"{path}: [totals] counted_once names row {rid!r} twice")
        once[ROW_IDS.index(rid)] = True
    if once.any() and not double:
        raise RuleTableError(f"{path}: [totals] counted_once needs double_interpretation = true")
    if double and not win_shapes[Shape.NICO_NICO]:
        raise RuleTableError(f"{path}: [totals] double_interpretation needs 'nico_nico' among the [win] shapes")
    return double, once


def _win_shapes(win: dict, path: str) -> np.ndarray:
    """``[win] shapes``: the names of the shapes that make a win (every shape when absent); standard is one."""
    names = _names(win, "shapes", list(SHAPE_NAMES), f"{path}: [win]")
    for name in names:
        if name not in SHAPE_NAMES:
            raise RuleTableError(f"{path}: [win] shapes: unknown shape {name!r} (known: {', '.join(SHAPE_NAMES)})")
    if SHAPE_NAMES[Shape.STANDARD] not in names:
        raise RuleTableError(f"{path}: [win] shapes must include 'standard' (five sets and the eyes)")
    return np.array([name in names for name in SHAPE_NAMES], dtype=np.bool_)


def _table(data: dict, key: str, path: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise RuleTableError(f"{path}: [{key}] must be a table, got {value!r}")
    return value


def _flag(entry: dict, key: str, default: bool, where: str) -> bool:
    value = entry.get(key, default)
    if not isinstance(value, bool):
        raise RuleTableError(f"{where} {key} must be true or false, got {value!r}")
    return value


# Most units a row can score in one valid hand: ``MAX_UNITS`` of :mod:`fastscore.kernels.rows`.
#: Row points are stored as int16 (``BatchResult.row_points``, Parquet columns).
MAX_ROW_POINTS = 32_767


#: Payouts are stored as int32.
MAX_PAYOUT = 2**31 - 1


def _check_ranges(points: np.ndarray, tiers: np.ndarray, path: str, pay_base: int = 0, pay_unit: int = 1,
                  readings: int = 1) -> None:
    """Every row's value, at its most units (times ``readings``, 2 with the double interpretation), must fit
    the int16 row-points columns, and the payout of every row scoring at once the int32 payout column."""
    total = 0
    for i, rid in enumerate(ROW_IDS):
        most = readings * (int(np.abs(tiers[i]).max()) if rid in TIERED_ROWS else abs(int(points[i])) * MAX_UNITS[rid])
        if most > MAX_ROW_POINTS:
            raise RuleTableError(
                f"{path}: row {rid!r} can reach {most} points in one hand; row values must stay within "
                f"{MAX_ROW_POINTS} (points x at most {MAX_UNITS[rid]} units)"
            )
        total += most
    if pay_base + pay_unit * total > MAX_PAYOUT:
        raise RuleTableError(f"{path}: [payout] base + unit x the most points ({total}) exceeds {MAX_PAYOUT}")


def _replacement_order(replaces: np.ndarray, path: str) -> np.ndarray:
    """Topological order (replacing rows first); a cycle is an error naming its rows."""
    indegree = replaces.sum(axis=0).astype(np.int64)
    order: list[int] = []
    ready = [i for i in range(N_ROWS) if indegree[i] == 0]
    while ready:
        i = ready.pop(0)
        order.append(i)
        for j in np.flatnonzero(replaces[i]):
            indegree[j] -= 1
            if indegree[j] == 0:
                ready.append(int(j))
    if len(order) != N_ROWS:
        # Name only the rows on a cycle (a row that reaches itself), not the rows they replace.
        left = [i for i in range(N_ROWS) if i not in order]
        cycle = [ROW_IDS[i] for i in left if _reaches(replaces, i, i)]
        raise RuleTableError(f"{path}: 'replaces' cycle among rows {', '.join(cycle)}")
    return np.array(order, dtype=np.int64)


def _reaches(replaces: np.ndarray, start: int, goal: int) -> bool:
    """Whether a chain of ``replaces`` leads from row ``start`` to row ``goal`` (one step at least)."""
    seen: set[int] = set()
    stack = [int(j) for j in np.flatnonzero(replaces[start])]
    while stack:
        j = stack.pop()
        if j == goal:
            return True
        if j not in seen:
            seen.add(j)
            stack.extend(int(k) for k in np.flatnonzero(replaces[j]))
    return False


def load_rules(path: str | Path | None = None) -> RuleTable:
    """Load and validate a rule table.

    Parameters
    ----------
    path : str or Path, optional
        The name of a packaged profile (:data:`PROFILES`: ``"lrc"``, ``"taiwan"``, ...), or a TOML file in
        the format of the packaged ``rules.toml``; default: the packaged LRC table.  A name of
        :data:`PROFILES` is the profile even where a file of that name exists (write ``./taiwan`` for it).

    Raises
    ------
    RuleTableError (a ValueError)
        An unknown profile name or row id, a file without rows, a non-integer value or one
        outside 0-10000, a ``replaces`` cycle, a bad ``[profile]``, ``[totals]``, ``[payout]`` or ``[win]``
        entry (``[win] shapes`` must name known shapes, standard among them), or a file that cannot
        be read.  (A row the file leaves out is not in force.)

    Notes
    -----
    Parsed tables are cached by path and file content, so a file edited
    between two loads in one process is read again (a cache keyed on the path
    alone returned the old table; one keyed on ``st_mtime_ns`` misses an edit
    of the same size within one file-system timestamp tick).
    """
    if path is None:
        return default_rules()
    if isinstance(path, str) and path in PROFILES:
        return profile(path)
    resolved = Path(path).resolve()
    if isinstance(path, str) and Path(path).name == path and "." not in path and not resolved.exists():
        # A bare name such as "taiwn": a misspelt profile more likely than a missing file.
        raise RuleTableError(f"unknown profile {path!r} (known: {', '.join(PROFILES)}), and no file of that name")
    return _load_path(str(resolved))


def _load_path(path: str) -> RuleTable:
    try:
        with open(path, "rb") as f:
            content = f.read()
    except OSError as exc:
        raise RuleTableError(f"cannot read rule table {path}: {exc.strerror}") from None
    return _parse_content(path, content)


@lru_cache(maxsize=16)
def _parse_content(path: str, content: bytes) -> RuleTable:
    """Parse and check one table's bytes (cached on path and content)."""
    try:
        data = tomllib.loads(content.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RuleTableError(f"{path}: not valid TOML: {exc}") from None
    return _parse(data, path)


@lru_cache(maxsize=None)
def default_rules() -> RuleTable:
    """The packaged default table, the ``lrc`` profile (loaded once; cached here too, so that the
    one-hand calls get it in one call)."""
    return profile("lrc")


@lru_cache(maxsize=None)
def profile(name: str) -> RuleTable:
    """The packaged profile ``name`` of :data:`PROFILES` (loaded once).

    Raises
    ------
    RuleTableError
        An unknown name (the message lists the known ones).
    """
    if name not in PROFILES:
        raise RuleTableError(f"unknown profile {name!r} (known: {', '.join(PROFILES)})")
    ref = resources.files("fastscore").joinpath(PROFILES[name])
    with resources.as_file(ref) as p:
        return _load_path(str(p))


def try_resolve_rules(rules) -> RuleTable | None:
    """:func:`resolve_rules`, or None where it raises :class:`RuleTableError` (the one-hand calls then
    take the path that checks the hand first, so that a bad hand is named before a bad table)."""
    try:
        return resolve_rules(rules)
    except RuleTableError:
        return None


def resolve_rules(rules) -> RuleTable:
    """Accept ``None`` (the default ``lrc`` profile), a profile name of :data:`PROFILES`, a path, or a
    :class:`RuleTable`."""
    if rules is None:
        return default_rules()
    if isinstance(rules, RuleTable):
        return rules
    return load_rules(rules)
