"""fastscore: fast, exact scoring of LRC-style Taiwanese 16-tile mahjong hands.

See README.md for the tile index table and examples; docs/rules.md explains the rules it scores by.
"""

from .batch import HandBatch
from .records import RECORD_KEYS
from .efficiency import DiscardResult, ShantenResult, discard_analysis, discards, shanten, shanten_batch
from .enumerate import enumerate_hands
from .events import EVENT_NAMES, Event
from .rules import ROW_IDS, RuleTable, RuleTableError, Shape, load_rules
from .sample import sample_ready, sample_winning
from .score import BatchResult, Score, interpretations, score, score_batch, win_check
from .survey import SurveyResult, survey
from .tiles import TILE_NAMES, ErrorCode, HandError, SetKind, parse_hand, parse_tile
from .waits import WaitsResult, tile_efficiency, waits, waits_batch
from .warmup import warmup

__all__ = [
    "BatchResult",
    "DiscardResult",
    "EVENT_NAMES",
    "ErrorCode",
    "Event",
    "HandBatch",
    "HandError",
    "RECORD_KEYS",
    "ROW_IDS",
    "RuleTable",
    "RuleTableError",
    "Score",
    "SurveyResult",
    "SetKind",
    "ShantenResult",
    "Shape",
    "TILE_NAMES",
    "WaitsResult",
    "discard_analysis",
    "discards",
    "enumerate_hands",
    "interpretations",
    "load_rules",
    "parse_hand",
    "parse_tile",
    "sample_ready",
    "sample_winning",
    "score",
    "score_batch",
    "shanten",
    "shanten_batch",
    "survey",
    "tile_efficiency",
    "waits",
    "waits_batch",
    "warmup",
    "win_check",
]
__version__ = "0.1.0"
