"""Peer benchmarks, one call a hand from Python, on complete 14-tile riichi hands.

* the ``mahjong`` PyPI package (pure Python): full scoring
  (``HandCalculator().estimate_hand_value``) and the win check (``Agari().is_agari``);
* RiichiEnv (``riichienv``, Rust): full scoring (``HandEvaluator(13 tiles).calc(win)``, the
  evaluator built per hand as a caller does) and the waits of the 13 tiles left without the
  winning tile (``get_waits``);

all of the same fixed, seeded set of hands, so that the summary table shows
fastscore's ratio to the peers measured in the same run, on the same machine
(``xiangting``, shanten only: ``test_bench_shanten.py``).  The hands are closed, declared riichi (so every hand has a
yaku and is scored in full), 90 % four sets and a pair, 10 % seven pairs,
the winning tile one of the 14, a third of them self-drawn.

Marked ``peers(package)``: selected when the package imports (``--peers=auto``, the
default), an error when ``--peers=on`` and it does not, deselected with
``--peers=off``.  Install with ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import random
from importlib.metadata import version

import pytest
from benchlib import SEED, run


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


@pytest.mark.peers("mahjong")
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


@pytest.mark.peers("mahjong")
def test_mahjong_is_agari(benchmark, hands):
    from mahjong.agari import Agari

    agari = Agari()
    result = run(benchmark, lambda: [agari.is_agari(counts) for counts, _, _, _ in hands],
                 task="win_check", impl=impl_name(), family="riichi14", n=len(hands), group="peers")
    assert all(result)


@pytest.mark.peers("riichienv")
def test_riichienv_score(benchmark, hands):
    import riichienv

    impl = f"RiichiEnv {version('riichienv')}"
    conditions = {drawn: riichienv.Conditions(tsumo=drawn, riichi=True) for drawn in (False, True)}
    concealed = [[t for t in tiles if t != win] for _, tiles, win, _ in hands]
    result = run(benchmark, lambda: [riichienv.HandEvaluator(c, []).calc(win, conditions=conditions[drawn])
                                     for c, (_, _, win, drawn) in zip(concealed, hands)],
                 task="score", impl=impl, family="riichi14", n=len(hands), group="peers")
    assert all(r.is_win for r in result)


@pytest.mark.peers("riichienv")
def test_riichienv_waits(benchmark, hands):
    import riichienv

    impl = f"RiichiEnv {version('riichienv')}"
    concealed = [[t for t in tiles if t != win] for _, tiles, win, _ in hands]
    result = run(benchmark, lambda: [riichienv.HandEvaluator(c, []).get_waits() for c in concealed],
                 task="waits", impl=impl, family="riichi13", n=len(hands), group="peers")
    assert all(win // 4 in waits for waits, (_, _, win, _) in zip(result, hands))
