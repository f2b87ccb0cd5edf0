"""A small mahjong simulation written in numba, calling fastscore inside ``@njit(parallel=True)``.

Each game deals 16 tiles to four players from a shuffled wall of 136 tiles
(no flowers), then the players draw and discard in turn: a player who draws
a winning tile declares the win by self-draw, and a discard that completes
another player's hand is claimed, when the win is legal (it reaches the round
minimum).  The policy is simple: never claim a set, discard the tile with the
fewest tiles near it.  The game is a draw when 16 tiles are left.  Every win
check and every score is fastscore's (:mod:`fastscore.nb`), called from the
compiled game loop.

Run: ``python examples/simulate.py [GAMES] [SEED]``.
"""

from __future__ import annotations

import sys
import time

import numba
import numpy as np

from fastscore import nb

DEAD_WALL = 16  # tiles left when the game is a draw


@numba.njit
def _discard(counts):
    """The tile kind to discard: the held kind with the fewest tiles of its own and near it
    (same suit, one or two steps away); the lowest kind on a tie."""
    best, best_value = -1, 1 << 30
    for t in range(34):
        if counts[t] == 0:
            continue
        value = 4 * np.int64(counts[t])
        if t < 27:  # a number tile: its neighbours in the suit
            rank = t % 9
            for step in (-2, -1, 1, 2):
                if 0 <= rank + step <= 8:
                    value += (3 - abs(step)) * np.int64(counts[t + step])
        if value < best_value:
            best, best_value = t, value
    return best


@numba.njit
def _legal_win(concealed, declared, tile, self_drawn, seat, rules, suit_info, suit_entries, dec_words, row_points,
               scratch):
    """The payout of winning on ``tile`` (East round, no flowers), or -1 when it is not a legal win:
    the win check first (cheap), then the score."""
    code, is_win = nb.win_check_hand(concealed, declared, tile, suit_info, scratch)
    if code != 0 or not is_win:
        return -1
    code, _, _, _, _, _, legal, payout = nb.score_hand(concealed, declared, tile, self_drawn, seat, 0, 0, 0, False,
                                                       rules, suit_entries, dec_words, row_points, scratch)
    return payout if code == 0 and legal else -1


@numba.njit
def play(seed, rules, suit_info, suit_entries, dec_words, row_points, scratch, final):
    """One game: ``(winner or -1, payout, self_drawn, winning tile)``; ``final`` (34,) uint8 gets
    the winner's 16 tiles before the win."""
    np.random.seed(seed)
    wall = np.repeat(np.arange(34), 4)
    np.random.shuffle(wall)
    hands = np.zeros((4, 34), dtype=np.uint8)
    declared = np.zeros((5, 2), dtype=np.int8)  # this policy never claims a set
    pos = 0
    for player in range(4):
        for _ in range(16):
            hands[player, wall[pos]] += 1
            pos += 1
    player = 0  # East deals and draws first; seat wind = player
    while pos < wall.shape[0] - DEAD_WALL:
        tile = wall[pos]
        pos += 1
        payout = _legal_win(hands[player], declared, tile, True, player, rules, suit_info, suit_entries, dec_words,
                            row_points, scratch)
        if payout >= 0:
            final[:] = hands[player]
            return player, payout, True, tile
        hands[player, tile] += 1
        out = _discard(hands[player])
        hands[player, out] -= 1
        for k in range(1, 4):  # the next players in turn may claim the discard
            other = (player + k) % 4
            payout = _legal_win(hands[other], declared, out, False, other, rules, suit_info, suit_entries,
                                dec_words, row_points, scratch)
            if payout >= 0:
                final[:] = hands[other]
                return other, payout, False, out
        player = (player + 1) % 4
    return -1, 0, False, -1


@numba.njit(parallel=True)
def simulate(n_games, seed, rules, suit_info, suit_entries, dec_words, winner, payout, self_drawn, win_tile, final):
    """Play ``n_games`` games (game ``g`` seeded ``seed + g``), in parallel; fills the (n_games,) outputs
    and ``final`` (n_games, 34) uint8, the winner's 16 tiles before the win."""
    for g in numba.prange(n_games):
        row_points = np.zeros(nb.N_ROWS, dtype=np.int16)
        scratch = nb.make_scratch()
        winner[g], payout[g], self_drawn[g], win_tile[g] = play(seed + g, rules, suit_info, suit_entries, dec_words,
                                                                 row_points, scratch, final[g])


def run(n_games: int, seed: int = 0) -> dict:
    """Simulate ``n_games`` games; the per-game arrays (winner -1 for a draw)."""
    rules = nb.rule_array()
    suit_info, suit_entries, dec_words = nb.tables()
    out = dict(winner=np.empty(n_games, dtype=np.int64), payout=np.empty(n_games, dtype=np.int64),
               self_drawn=np.empty(n_games, dtype=np.bool_), win_tile=np.empty(n_games, dtype=np.int64),
               final=np.zeros((n_games, 34), dtype=np.uint8))
    simulate(n_games, seed, rules, suit_info, suit_entries, dec_words, out["winner"], out["payout"],
             out["self_drawn"], out["win_tile"], out["final"])
    return out


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    run(10, seed)  # compile (or load) the kernels first
    start = time.perf_counter()
    out = run(n_games, seed)
    seconds = time.perf_counter() - start
    won = out["winner"] >= 0
    print(f"{n_games:,} games in {seconds:.2f} s ({n_games / seconds:,.0f} games/s)")
    print(f"wins: {won.mean():.1%} (self-drawn {out['self_drawn'][won].mean():.1%}), draws: {1 - won.mean():.1%}")
    if won.any():
        print(f"mean payout of a win: {out['payout'][won].mean():.1f} points; "
              f"wins by seat E S W N: {np.bincount(out['winner'][won], minlength=4).tolist()}")


if __name__ == "__main__":
    main()
