"""A small mahjong simulation written in numba, calling fastscore inside ``@njit(parallel=True)``.

Each game deals 16 tiles to four players from a shuffled wall of 136 tiles
(no flowers), then the players draw and discard in turn: a player who draws
a winning tile declares the win by self-draw, and a discard that completes
another player's hand is claimed, when the win is legal (it reaches the round
minimum).  No player claims a set.  The game is a draw when 16 tiles are left.
Every win check, score, shanten and discard analysis is fastscore's
(:mod:`fastscore.nb`), called from the compiled game loop.

Three discard policies (``POLICIES``):

- ``simple``: the tile with the fewest tiles near it;
- ``random``: a tile drawn at random from the 17;
- ``greedy``: the discard that leaves the least shanten, then the most live
  useful draws (copies neither held nor discarded yet of the kinds whose draw
  would lower the shanten; :func:`fastscore.nb.discards_hand`), then as ``simple``.

East plays the policy under test, the other three seats the field's policy
(``--field``, default ``simple``); the same seeds deal the same walls to every
policy.  Each game records the turn (that seat's discards so far) at which each
player's 16 tiles first became ready (shanten 0, :func:`fastscore.nb.shanten_hand`;
0 when dealt ready).

Run: ``python examples/simulate.py [GAMES] [SEED] [--policy simple|random|greedy|all] [--field POLICY]``.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from fastscore import nb

DEAD_WALL = 16  # tiles left when the game is a draw
POLICIES = {"simple": 0, "random": 1, "greedy": 2}
SIMPLE, RANDOM, GREEDY = 0, 1, 2


@numba.njit
def _discard(counts):
    """The tile kind to discard: the held kind with the fewest tiles of its own and near it
    (same suit, one or two steps away); the lowest kind on a tie."""
    best, best_value = -1, 1 << 30
    for t in range(34):
        if counts[t] == 0:
            continue
        value = _isolation(counts, t)
        if value < best_value:
            best, best_value = t, value
    return best


@numba.njit
def _isolation(counts, t):
    """How many tiles of its own kind and near it (same suit, one or two steps away, the nearer
    weighing more) a held kind ``t`` has: the simple policy discards the least."""
    value = 4 * np.int64(counts[t])
    if t < 27:  # a number tile: its neighbours in the suit
        rank = t % 9
        for step in (-2, -1, 1, 2):
            if 0 <= rank + step <= 8:
                value += (3 - abs(step)) * np.int64(counts[t + step])
    return value


@numba.njit
def _random_discard(counts):
    """A tile drawn at random from the hand (each of its tiles alike)."""
    r = np.random.randint(0, counts.sum())
    for t in range(34):
        r -= np.int64(counts[t])
        if r < 0:
            return t
    return -1


@numba.njit
def _greedy_discard(concealed, declared, tile, seen, number_table, honour_table, shanten_scratch, shanten, useful,
                    live_useful):
    """The discard of the 16 tiles ``concealed`` and the drawn ``tile``: least shanten after it, then most
    live useful draws (``seen``: the copies discarded so far), then the fewest tiles near it."""
    nb.discards_hand(concealed, declared, tile, seen, number_table, honour_table, shanten_scratch, shanten, useful,
                     live_useful)
    best_s, best_live = 1 << 30, -1
    for t in range(34):  # the least shanten, then the most live useful draws
        s = np.int64(shanten[t])
        if s < best_s or (s == best_s and live_useful[t] > best_live):
            best_s, best_live = s, np.int64(live_useful[t])
    concealed[tile] += 1
    best, best_value = -1, 1 << 30
    for t in range(34):  # among those, the fewest tiles near it
        if shanten[t] != best_s or live_useful[t] != best_live:
            continue
        value = _isolation(concealed, t)
        if value < best_value:
            best, best_value = t, value
    concealed[tile] -= 1
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
def play(seed, policies, rules, suit_info, suit_entries, dec_words, row_points, scratch, number_table, honour_table,
         final, ready_turn, turns):
    """One game, seat ``p`` playing ``policies[p]``: ``(winner or -1, payout, self_drawn, winning tile)``;
    ``final`` (34,) uint8 gets the winner's 16 tiles before the win, ``ready_turn`` (4,) the number of
    discards each seat had made when its 16 tiles first became ready (-1: never), ``turns`` (4,) the
    discards each seat made in the game."""
    np.random.seed(seed)
    wall = np.repeat(np.arange(34), 4)
    np.random.shuffle(wall)
    hands = np.zeros((4, 34), dtype=np.uint8)
    declared = np.zeros((5, 2), dtype=np.int8)  # no policy claims a set
    seen = np.zeros(34, dtype=np.uint8)  # the tiles discarded so far
    shanten_scratch = nb.make_shanten_scratch()
    shanten = np.zeros(34, dtype=np.int8)
    useful = np.zeros(34, dtype=np.int64)
    live_useful = np.zeros(34, dtype=np.int16)
    turns[:] = 0
    pos = 0
    for player in range(4):
        for _ in range(16):
            hands[player, wall[pos]] += 1
            pos += 1
        ready = nb.shanten_hand(hands[player], declared, -1, number_table, honour_table, shanten_scratch)[1] == 0
        ready_turn[player] = 0 if ready else -1
    player = 0  # East deals and draws first; seat wind = player
    while pos < wall.shape[0] - DEAD_WALL:
        tile = wall[pos]
        pos += 1
        payout = _legal_win(hands[player], declared, tile, True, player, rules, suit_info, suit_entries, dec_words,
                            row_points, scratch)
        if payout >= 0:
            final[:] = hands[player]
            return player, payout, True, tile
        policy = policies[player]
        if policy == GREEDY:
            out = _greedy_discard(hands[player], declared, tile, seen, number_table, honour_table, shanten_scratch,
                                  shanten, useful, live_useful)
            hands[player, tile] += 1
        else:
            hands[player, tile] += 1
            out = _random_discard(hands[player]) if policy == RANDOM else _discard(hands[player])
        hands[player, out] -= 1
        seen[out] += 1
        turns[player] += 1
        if ready_turn[player] < 0 and nb.shanten_hand(hands[player], declared, -1, number_table, honour_table,
                                                      shanten_scratch)[1] == 0:
            ready_turn[player] = turns[player]
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
def simulate(n_games, seed, policies, rules, suit_info, suit_entries, dec_words, number_table, honour_table, winner,
             payout, self_drawn, win_tile, final, ready_turn, turns):
    """Play ``n_games`` games (game ``g`` seeded ``seed + g``), in parallel; fills the (n_games,) outputs,
    ``final`` (n_games, 34) uint8, the winner's 16 tiles before the win, ``ready_turn`` and ``turns``
    (n_games, 4) as :func:`play`'s."""
    for g in numba.prange(n_games):
        row_points = np.zeros(nb.N_ROWS, dtype=np.int16)
        scratch = nb.make_scratch()
        winner[g], payout[g], self_drawn[g], win_tile[g] = play(seed + g, policies, rules, suit_info, suit_entries,
                                                                 dec_words, row_points, scratch, number_table,
                                                                 honour_table, final[g], ready_turn[g],
                                                                 turns[g])


def run(n_games: int, seed: int = 0, policy: str = "simple", field: str = "simple") -> dict:
    """Simulate ``n_games`` games, East playing ``policy`` and the others ``field``; the per-game arrays
    (winner -1 for a draw; ``ready_turn`` (n_games, 4), -1 for a seat never ready; ``turns`` (n_games, 4),
    the discards each seat made)."""
    rules = nb.rule_array()
    suit_info, suit_entries, dec_words = nb.tables()
    number_table, honour_table = nb.shanten_tables()
    policies = np.array([POLICIES[policy]] + 3 * [POLICIES[field]], dtype=np.int64)
    out = dict(winner=np.empty(n_games, dtype=np.int64), payout=np.empty(n_games, dtype=np.int64),
               self_drawn=np.empty(n_games, dtype=np.bool_), win_tile=np.empty(n_games, dtype=np.int64),
               final=np.zeros((n_games, 34), dtype=np.uint8), ready_turn=np.empty((n_games, 4), dtype=np.int64),
               turns=np.empty((n_games, 4), dtype=np.int64))
    simulate(n_games, seed, policies, rules, suit_info, suit_entries, dec_words, number_table, honour_table,
             out["winner"], out["payout"], out["self_drawn"], out["win_tile"], out["final"], out["ready_turn"], out["turns"])
    return out


def summary(out: dict) -> dict:
    """East's figures: ``win_rate`` (share of games East wins), ``ready_rate`` (share in which East gets
    ready), ``turns_to_ready`` (mean discards East had made when it first got ready, counting a game in
    which it never did at the discards it made: a game ends after at most 14, so this is a lower bound
    of the mean turns to ready, and the fair comparison between policies), ``turns_if_ready`` (the mean
    over the games East got ready in), and for the whole table ``table_win_rate`` and ``mean_payout``."""
    won = out["winner"] >= 0
    ready = out["ready_turn"][:, 0]
    capped = np.where(ready >= 0, ready, out["turns"][:, 0])
    return dict(win_rate=float((out["winner"] == 0).mean()), ready_rate=float((ready >= 0).mean()),
                turns_to_ready=float(capped.mean()),
                turns_if_ready=float(ready[ready >= 0].mean()) if (ready >= 0).any() else float("nan"),
                table_win_rate=float(won.mean()),
                mean_payout=float(out["payout"][won].mean()) if won.any() else float("nan"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=10_000)
    parser.add_argument("seed", nargs="?", type=int, default=0)
    parser.add_argument("--policy", choices=[*POLICIES, "all"], default="all", help="East's policy (all: each in turn)")
    parser.add_argument("--field", choices=list(POLICIES), default="simple", help="the other three seats' policy")
    args = parser.parse_args()
    policies = list(POLICIES) if args.policy == "all" else [args.policy]
    # "turns to ready": East's discards when it first got ready, a game in which it never did counted at
    # the discards it made (at most 14; a lower bound); "(if ready)": over the games it got ready in.
    print(f"{args.games:,} games (seeds {args.seed} to {args.seed + args.games - 1}), East against three "
          f"{args.field} players")
    print(f"{'East':>8} {'games/s':>9} {'East wins':>9} {'ready':>7} {'turns to ready':>14} {'(if ready)':>10} "
          f"{'table wins':>10} {'mean payout':>11}")
    for policy in policies:
        run(10, args.seed, policy, args.field)  # compile (or load) the kernels first
        start = time.perf_counter()
        out = run(args.games, args.seed, policy, args.field)
        seconds = time.perf_counter() - start
        s = summary(out)
        print(f"{policy:>8} {args.games / seconds:>9,.0f} {s['win_rate']:>9.1%} {s['ready_rate']:>7.1%} "
              f"{s['turns_to_ready']:>14.2f} "
              f"{s['turns_if_ready']:>10.2f} {s['table_win_rate']:>10.1%} {s['mean_payout']:>11.1f}")


if __name__ == "__main__":
    main()
