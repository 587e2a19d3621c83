"""Unattended games per second: RandomPlayer against RandomPlayer, and SimplePlayer against SimplePlayer.

Each seat decides from its own `SeatView`, as in a real game. The games use fixed seeds, so every run
plays the same games. Random against random is the reference measured in the same run: the ratio says
how many times slower the simple player's games are, whatever the machine.
Run: ``python benchmarks/bench_games.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribcore import Game
from cribcore.players import Player, RandomPlayer, SimplePlayer


def play(seed: int, players: list[Player]) -> Game:
    game = Game(seed=seed)
    while game.to_act:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    return game


def games_per_second(games: int, make_players: Callable[[int], list[Player]]) -> tuple[float, float]:
    """Games per second over seeds 0..games-1, and the mean number of deals per game."""
    deals = 0
    start = time.perf_counter()
    for seed in range(games):
        deals += play(seed, make_players(seed)).deal_number + 1
    elapsed = time.perf_counter() - start
    return games / elapsed, deals / games


def random_players(seed: int) -> list[Player]:
    return [RandomPlayer(seed), RandomPlayer(seed + 1)]


def simple_players(seed: int) -> list[Player]:
    return [SimplePlayer(), SimplePlayer()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=300, help="random games (default 300)")
    parser.add_argument("--simple-games", type=int, default=20, help="simple games (default 20)")
    args = parser.parse_args(argv)

    reference, random_deals = games_per_second(args.random_games, random_players)
    simple, simple_deals = games_per_second(args.simple_games, simple_players)

    for name, rate, games, deals in (
        ("random vs random", reference, args.random_games, random_deals),
        ("simple vs simple", simple, args.simple_games, simple_deals),
    ):
        print(f"{name}: {rate:8.1f} games/s ({games} games, {deals:.1f} deals each)")
    print(f"ratio simple/random (reference): {simple / reference:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
