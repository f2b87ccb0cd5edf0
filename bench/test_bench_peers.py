"""Peer benchmarks: the ``mahjong`` PyPI package (riichi rules, pure Python) on complete 14-tile hands.

Full scoring (``HandCalculator().estimate_hand_value``) and the win check
(``Agari().is_agari``) of the same fixed, seeded set of hands, so that the
summary table shows fastscore's ratio to a peer measured in the same run, on
the same machine.  The hands are closed, declared riichi (so every hand has a
yaku and is scored in full), 90 % four sets and a pair, 10 % seven pairs,
the winning tile one of the 14, a third of them self-drawn.

Marked ``peers``: selected when ``mahjong`` imports (``--peers=auto``, the
default), an error when ``--peers=on`` and it does not, deselected with
``--peers=off``.  Install with ``pip install -e '.[bench]'`` (``mahjong==2.1.0``).
"""

from __future__ import annotations

import random
from importlib.metadata import version

import pytest
from benchlib import SEED, run

pytestmark = pytest.mark.peers

N_HANDS = 300


def riichi_hands(n: int, seed: int) -> list[tuple[list[int], list[int], int, bool]]:
    """``n`` complete closed 14-tile hands as ``(counts34, tiles136, win_tile136, self_drawn)``."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < n:
        counts = [0] * 34
        if rng.random() < 0.1:
            for kind in rng.sample(range(34), 7):
                counts[kind] = 2
        else:
            for _ in range(4):
                if rng.random() < 0.6:
                    start = 9 * rng.randrange(3) + rng.randrange(7)
                    kinds = (start, start + 1, start + 2)
                else:
                    kinds = (rng.randrange(34),) * 3
                for kind in kinds:
                    counts[kind] += 1
            counts[rng.randrange(34)] += 2
            if max(counts) > 4:
                continue
        tiles = [4 * kind + copy for kind in range(34) for copy in range(counts[kind])]
        hands.append((counts, tiles, rng.choice(tiles), rng.random() < 1 / 3))
    return hands


@pytest.fixture(scope="module")
def hands():
    return riichi_hands(N_HANDS, SEED)


def impl_name() -> str:
    return f"mahjong {version('mahjong')}"


def test_mahjong_estimate_hand_value(benchmark, hands):
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    calculator = HandCalculator()
    configs = {drawn: HandConfig(is_riichi=True, is_tsumo=drawn) for drawn in (False, True)}
    result = run(benchmark, lambda: [calculator.estimate_hand_value(tiles, win, config=configs[drawn])
                                     for _, tiles, win, drawn in hands],
                 task="score", impl=impl_name(), family="riichi14", n=len(hands), group="peers")
    errors = [r.error for r in result if r.error is not None]
    assert not errors, f"{len(errors)} hands not scored, e.g. {errors[0]}"


def test_mahjong_is_agari(benchmark, hands):
    from mahjong.agari import Agari

    agari = Agari()
    result = run(benchmark, lambda: [agari.is_agari(counts) for counts, _, _, _ in hands],
                 task="win_check", impl=impl_name(), family="riichi14", n=len(hands), group="peers")
    assert all(result)
