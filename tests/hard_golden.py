"""The hard level's decisions in seeded games, recorded once from the code before its speed-up.

`record` plays one seeded game (as ``cribbage simulate`` plays game ``index`` of a run seeded with
``seed``) and notes every action taken and, at every hard play decision with a choice, the whole
ranking of `HardPlayer.rank_plays` (card, value rounded to 9 places, samples). A faster hard level
must reproduce these exactly: the same random draws give the same choices.

Regenerate (only when the hard level's play is meant to change):
``python -m tests.hard_golden > tests/data/hard_golden.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cribcore import Game, Play
from cribcore.players import make_player
from cribcore.players.hard import HardPlayer
from cribcore.profiles import load_profile
from cribcore.simulate import Matchup, game_seed, player_seed

GOLDEN = Path(__file__).resolve().parent / "data" / "hard_golden.json"

GAMES: tuple[tuple[str, tuple[str, ...], int, int], ...] = (
    # (profile, kinds by seat, run seed, game index)
    ("standard", ("hard", "hard"), 1, 0),
    ("standard", ("hard", "medium"), 2, 0),
    ("standard", ("medium", "hard"), 3, 0),
    ("lowball", ("hard", "hard"), 4, 0),
    ("three-players", ("hard", "hard", "medium"), 5, 0),
    ("five-card", ("hard", "medium"), 6, 0),
    ("standard", ("hard", "hard"), 7, 1),
    ("muggins", ("hard", "hard"), 8, 0),
    ("partners", ("hard", "medium", "hard", "medium"), 9, 0),
)
"""The recorded games; the default test replays the first `QUICK` of them."""

QUICK = 3


def record(profile: str, kinds: tuple[str, ...], seed: int, index: int) -> dict[str, Any]:
    """Play the game and note its actions and the hard level's play rankings."""
    matchup = Matchup(load_profile(profile), kinds, seed)
    game_id = game_seed(seed, index)
    game = Game(matchup.profile, seed=game_id, players=[f"{k} {s + 1}" for s, k in enumerate(kinds)])
    players = [make_player(kind, player_seed(game_id, seat)) for seat, kind in enumerate(kinds)]
    actions: list[str] = []
    rankings: list[list[Any]] = []
    while not game.is_over:
        seat = game.to_act[0]
        view = game.view(seat)
        player = players[seat]
        if (
            isinstance(player, HardPlayer)
            and len(view.legal_actions) > 1
            and isinstance(view.legal_actions[0], Play)
        ):
            ranking = player.rank_plays(view)
            rankings.append([len(actions), [[e.card, round(e.value, 9), e.samples] for e in ranking]])
        action = player.choose(view)
        actions.append(str(action))
        game.apply(seat, action)
    return {
        "profile": profile,
        "kinds": list(kinds),
        "seed": seed,
        "index": index,
        "actions": actions,
        "rankings": rankings,
    }


def load() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(GOLDEN.read_text())
    return games


if __name__ == "__main__":
    json.dump([record(*game) for game in GAMES], sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
