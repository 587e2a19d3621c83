"""Sides as data: uneven sides (``sides_of_seats``) and a target per side (``targets``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from cribcore import Game
from cribcore.cli.board import Pegs, board_lines
from cribcore.cli.describe import Voice
from cribcore.players import make_player
from cribcore.profiles import Profile, load_profile
from cribcore.records import game_record, replay
from cribcore.rules import RuleSet

THREE = {"seats": 3, "cards_dealt": 5, "discards": 1, "crib_from_pack": 1}
CAPTAINS = RuleSet.model_validate({**THREE, "sides_of_seats": [0, 1, 1], "targets": [61, 121]})


def test_sides_and_targets_are_read_through_the_rules() -> None:
    assert (CAPTAINS.sides, [CAPTAINS.side_of(s) for s in range(3)]) == (2, [0, 1, 1])
    assert (CAPTAINS.seats_of(0), CAPTAINS.seats_of(1)) == ((0,), (1, 2))
    assert (CAPTAINS.target_of(0), CAPTAINS.target_of(1)) == (61, 121)
    assert CAPTAINS.uneven
    partners = RuleSet(seats=4, cards_dealt=5, discards=1, partnerships=True)
    spelled = RuleSet(seats=4, cards_dealt=5, discards=1, sides_of_seats=(0, 1, 0, 1))
    for rules in (partners, spelled):
        assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]
        assert rules.target_of(1) == 121 and not rules.uneven
    assert RuleSet().sides == 2 and RuleSet().seats_of(1) == (1,)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"sides_of_seats": [0, 0, 0]}, "at least two sides"),
        ({"sides_of_seats": [0, 2, 2]}, "no side left empty"),
        ({"sides_of_seats": [0, 1]}, "one side per seat (3)"),
        ({"sides_of_seats": [-1, 0, 1]}, "no side left empty"),
        ({"targets": [61, 121]}, "one target per side (3)"),
        ({"sides_of_seats": [0, 1, 1], "targets": [0, 121]}, "1 to 10000"),
    ],
)
def test_bad_sides_are_refused(extra: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        RuleSet.model_validate({**THREE, **extra})


def test_partnerships_and_sides_are_not_both_set() -> None:
    with pytest.raises(ValidationError, match="not both"):
        RuleSet(seats=4, cards_dealt=5, discards=1, partnerships=True, sides_of_seats=(0, 1, 0, 1))


def test_unset_sides_leave_every_dump_as_before() -> None:
    assert set(RuleSet().model_dump()) == {
        "seats",
        "partnerships",
        "cards_dealt",
        "discards",
        "crib_from_pack",
        "target",
    }
    dumped = CAPTAINS.model_dump(mode="json")
    assert dumped["sides_of_seats"] == [0, 1, 1] and dumped["targets"] == [61, 121]
    assert RuleSet.model_validate(dumped) == CAPTAINS


def captains_game(seed: int) -> Game:
    profile = load_profile("three-players").model_copy(update={"name": "captains-test", "rules": CAPTAINS})
    game = Game(profile, seed=seed, players=("Cap", "Ann", "Bo"))
    players = [make_player("easy", seed + seat) for seat in range(3)]
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    return game


def test_a_side_wins_at_its_own_target_and_partners_share_a_score() -> None:
    for seed in range(4):
        game = captains_game(seed)
        assert len(game.scores) == 2
        winner = game.winner
        assert winner is not None
        assert game.scores[winner] >= CAPTAINS.target_of(winner)
        assert game.scores[1 - winner] < CAPTAINS.target_of(1 - winner)
        # Every seat deals in turn; the partners' points all go to side 1.
        dealers = [log.dealer for log in game.deal_logs()]
        assert dealers == [(dealers[0] + k) % 3 for k in range(len(dealers))]
        before: tuple[int, ...] = (0, 0)
        for event in (e for e in game.events if e.scored):
            assert event.seat is not None
            gained = [after - was for after, was in zip(event.scores, before, strict=True)]
            assert gained[CAPTAINS.side_of(event.seat)] == event.points
            assert gained[1 - CAPTAINS.side_of(event.seat)] == 0
            before = event.scores
        again = replay(game_record(game))
        assert (again.scores, again.winner) == (game.scores, game.winner)
        assert game.view(1).rules.target_of(game.view(1).side) == 121


def test_skunk_lines_stand_below_each_sides_own_target() -> None:
    from cribcore.pluginmanager import plugin_manager

    hook = plugin_manager(("standard", "skunk"), {}).hook
    # The captain (to 61) at 30 is 31 short of its target: as 90 at 121, a skunk; the partners at 90, too.
    assert hook.cribcore_game_points(rules=CAPTAINS, scores=(30, 121), winner=1) == 2
    assert hook.cribcore_game_points(rules=CAPTAINS, scores=(61, 90), winner=0) == 2
    assert hook.cribcore_game_points(rules=CAPTAINS, scores=(31, 121), winner=1) == 1
    assert hook.cribcore_game_points(rules=RuleSet(), scores=(121, 90), winner=0) == 2


def test_the_terminal_names_each_sides_target() -> None:
    voice = Voice.for_game(("Cap", "Ann", "Bo"), CAPTAINS)
    assert voice.goal(CAPTAINS) == "Cap to 61, Ann & Bo to 121"
    assert Voice.for_game(("A", "B"), RuleSet()).goal(RuleSet()) == "first to 121"
    lines = [line.plain for line in board_lines(voice.side_names, (Pegs(60, 55), Pegs(3, 0)), (61, 121))]
    assert lines[0].startswith("Cap 60") and lines[1].rstrip().endswith("61")
    assert lines[-1].rstrip().endswith("121")


def test_a_profile_file_sets_sides_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "uneven.toml"
    head = 'name = "uneven"\nextends = "three-players"\n'
    path.write_text(head + "[rules]\nsides_of_seats = [0, 1, 1]\ntargets = [61, 121]\n", encoding="utf-8")
    profile = load_profile(path)
    assert isinstance(profile, Profile) and profile.rules == CAPTAINS
