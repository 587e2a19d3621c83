"""A player that decides from its legal actions alone is handed those by the simulator instead of a whole
view: it plays exactly the games it plays from views, and every other player still gets its view."""

from __future__ import annotations

import pytest

from cribcore.actions import Action
from cribcore.engine import Game
from cribcore.players import RandomPlayer, registry
from cribcore.players.registry import make_player
from cribcore.profiles import load_profile
from cribcore.simulate import Matchup, game_seed, play_game, player_seed
from cribcore.views import SeatView


def _played_from_views(matchup: Matchup, index: int) -> Game:
    """`play_game` as it was: every seat's `choose` called with its `SeatView`."""
    seed = game_seed(matchup.seed, index)
    names = [f"{kind} {seat + 1}" for seat, kind in enumerate(matchup.kinds)]
    game = Game(matchup.profile, seed=seed, players=names)
    players = [make_player(kind, player_seed(seed, seat)) for seat, kind in enumerate(matchup.kinds)]
    while not game.is_over:
        seat = game.to_act[0]
        view = game.view(seat)
        assert isinstance(view, SeatView)
        game.apply(seat, players[seat].choose(view))
    return game


@pytest.mark.parametrize(
    ("profile", "kinds"),
    [
        ("standard", ("random", "random")),
        ("muggins", ("random", "easy")),
        ("three-players", ("easy", "random", "random")),
    ],
)
def test_random_seats_play_the_games_they_play_from_views(profile: str, kinds: tuple[str, ...]) -> None:
    matchup = Matchup(load_profile(profile), kinds, seed=4)
    for index in range(3):
        fast, slow = play_game(matchup, index), _played_from_views(matchup, index)
        assert [event.to_json() for event in fast.events] == [event.to_json() for event in slow.events]


def test_the_random_players_two_ways_of_choosing_agree() -> None:
    game = Game(seed=2)
    first, second = RandomPlayer(9), RandomPlayer(9)
    while not game.is_over:
        seat = game.to_act[0]
        action = first.choose(game.view(seat))
        assert second.choose_from(game.legal_actions(seat)) is action
        game.apply(seat, action)


class _Recorder:
    """A player that keeps what it is handed (and picks the first legal action)."""

    def __init__(self) -> None:
        self.handed: list[object] = []

    def choose(self, view: SeatView) -> Action:
        self.handed.append(view)
        return view.legal_actions[0]


def test_a_player_without_choose_from_is_handed_its_view(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = _Recorder()
    monkeypatch.setitem(registry.COMPUTER_KINDS, "easy", lambda seed: recorder)
    play_game(Matchup(load_profile("standard"), ("easy", "random"), seed=1), 0)
    assert recorder.handed
    assert all(isinstance(view, SeatView) and view.seat == 0 for view in recorder.handed)
