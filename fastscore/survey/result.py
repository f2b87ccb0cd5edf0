"""What a survey found: :class:`SurveyResult`, its exact tallies and the fractions read from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..rules import ROW_IDS, RuleTable, resolve_rules
from .report import write_parquet, write_report
from .tally import SHAPE_KEYS, Tally

__all__ = ["SurveyResult"]


@dataclass
class SurveyResult:
    """What :func:`survey` found.

    Attributes
    ----------
    context : dict
        The survey's parameters (win context, space or sample, rule table paths).
    hands : int
        Hands surveyed (count vectors, or sampled hands); with a given winning tile,
        only those holding it.
    scorings : int
        Hands scored (with ``win="uniform"``, one per hand and distinct kind).
    unit : int
        Unweighted weight of one hand: 17 (``win="uniform"`` over the exhaustive space), else 1.
    multiplicity : int
        Sum of the hands' multiplicities.
    tally : Tally
        Tallies under ``rules``.
    compare : Tally or None
        Tallies under the ``compare`` table.
    payout_change : ndarray, shape (2, 3), int64, or None
        Weight of scorings whose payout under ``compare`` is lower, equal, higher than under ``rules``.
    seconds : float
        Wall time of the survey, after the kernels are compiled or loaded.
    table, compare_table : RuleTable or None
        The rule tables surveyed (None: read again from ``context["rules"]`` / ``["compare"]`` when needed).
    """

    context: dict
    hands: int
    scorings: int
    unit: int
    multiplicity: int
    tally: Tally
    compare: Tally | None = None
    payout_change: np.ndarray | None = None
    seconds: float = 0.0
    table: RuleTable | None = field(default=None, repr=False, compare=False)
    compare_table: RuleTable | None = field(default=None, repr=False, compare=False)

    @property
    def sampled(self) -> bool:
        """A survey of sampled hands: each counts once, both weightings are the same plain count."""
        return self.context.get("sample") is not None

    def row_frequency(self, weighted: bool = True, table: str = "rules") -> dict[str, float]:
        """Row id -> fraction of the (weighted) scorings in which it scores, in :data:`ROW_IDS` order."""
        tally = self._table(table)
        return dict(zip(ROW_IDS, tally.fraction(tally.rows, weighted).tolist()))

    def top_rows(self, k: int = 10, weighted: bool = True, table: str = "rules") -> list[tuple[str, float]]:
        """The ``k`` rows that score most often (ties in :data:`ROW_IDS` order), with their fractions."""
        tally = self._table(table)
        w = int(weighted)
        order = np.argsort(-tally.rows[w], kind="stable")[:k]
        freq = tally.fraction(tally.rows, weighted)
        return [(ROW_IDS[r], float(freq[r])) for r in order if tally.rows[w, r]]

    def chicken_fraction(self, weighted: bool = True, table: str = "rules") -> float:
        tally = self._table(table)
        return float(tally.fraction(tally.chicken, weighted))

    def illegal_fraction(self, weighted: bool = True, table: str = "rules") -> float:
        """Fraction of wins below the round minimum (payout 0)."""
        tally = self._table(table)
        return float(tally.fraction(tally.illegal, weighted))

    def shape_fraction(self, weighted: bool = True, table: str = "rules") -> dict[str, float]:
        tally = self._table(table)
        return dict(zip(SHAPE_KEYS, tally.fraction(tally.shapes, weighted).tolist()))

    def payout_distribution(self, weighted: bool = True, table: str = "rules") -> np.ndarray:
        """``(P,) float64``: fraction of scorings per payout value 0 .. P-1."""
        tally = self._table(table)
        return tally.fraction(tally.payout, weighted)

    def rule_tables(self) -> tuple[RuleTable, RuleTable | None]:
        """The rule tables surveyed: ``(rules, compare)``, each read again from the context where the
        result does not hold it (``compare`` None without ``--compare``)."""
        rules = self.table if self.table is not None else resolve_rules(self.context["rules"])
        if self.compare is None:
            return rules, None
        compare = self.compare_table if self.compare_table is not None else resolve_rules(self.context["compare"])
        return rules, compare

    def _table(self, table: str) -> Tally:
        if table == "rules":
            return self.tally
        if table == "compare" and self.compare is not None:
            return self.compare
        known = "'rules' or 'compare'" if self.compare is not None else "'rules' (no table was compared)"
        raise ValueError(f"table must be {known}, got {table!r}")

    # ----------------------------------------------------------------------- output

    def to_parquet(self, path) -> Path:
        """Write every tally as one long table (pyarrow), the context in the schema metadata; returns
        ``path`` as a Path.  Columns and metadata: :func:`fastscore.survey.report.write_parquet`.
        """
        return write_parquet(self, path)

    def report(self, folder) -> Path:
        """Write ``report.md`` with PNG plots (and ``survey.parquet``) into ``folder``; returns the page's path.

        Plots: ``payout.png`` (:func:`~fastscore.survey.plot_payout`), ``rows.png``
        (:func:`~fastscore.survey.plot_rows`) and, with a compared table, ``compare.png``
        (:func:`~fastscore.survey.plot_compare`).  Without matplotlib the page
        is written without them, says so, and one line on stderr names the
        extra to install.  ``folder`` is replaced whole, and only once every
        file is written (an interrupted run leaves the old report whole); a
        folder holding other files is refused (:func:`fastscore.survey.report.write_report`).
        """
        return write_report(self, folder)
