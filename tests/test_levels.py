"""The computer levels: registered by name, the same deals at every level, reproducible, deciding from
views only, legal in every variant, and the behaviour each level promises."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from cribcore import (
    FULL_DECK,
    Action,
    Discard,
    Game,
    Play,
    Profile,
    RuleSet,
    SeatView,
    load_profile,
    parse_card,
    parse_cards,
)
from cribcore.players import COMPUTER_KINDS, Player, make_player
from cribcore.players.easy import EasyPlayer
from cribcore.players.expert import ExpertPlayer
from cribcore.players.hard import HardPlayer
from cribcore.players.level import LevelPlayer
from cribcore.players.medium import MediumPlayer
from cribcore.players.pegging import go_floors
from cribcore.players.registry import DEFAULT_LEVEL, LEVELS
from cribcore.players.tally import RANK, hand_values, peg_points, show_points
from cribcore.scoring import play_items, score_show

from .conftest import StackedGame, make_stacked_game

LEVEL_CLASSES: dict[str, type[LevelPlayer]] = {
    "easy": EasyPlayer,
    "medium": MediumPlayer,
    "hard": HardPlayer,
    "expert": ExpertPlayer,
}


def play_game(game: Game, kinds: list[str], seed: int) -> Game:
    """Play ``game`` to the end (or until it waits) with the given level at each seat."""
    players = [make_player(kind, seed * 10 + seat) for seat, kind in enumerate(kinds)]
    while game.to_act:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    return game


def deals_of(game: Game) -> list[tuple[Any, ...]]:
    return [(log.dealer, log.hands, log.crib_cards, log.starter) for log in game.deal_logs()]


# --------------------------------------------------------------------------- registry


class TestRegistry:
    def test_levels_are_registered(self) -> None:
        for level in LEVELS:
            assert isinstance(make_player(level, 1), LEVEL_CLASSES[level])

    def test_computer_is_the_default_level(self) -> None:
        assert DEFAULT_LEVEL == "medium"
        assert isinstance(make_player("computer", 1), MediumPlayer)
        assert "random" in COMPUTER_KINDS

    def test_unknown_kind(self) -> None:
        with pytest.raises(ValueError, match="hard"):
            make_player("grandmaster")


# --------------------------------------------------------------------------- the deal, reproducibility


class TestSameDealsAtEveryLevel:
    """Seed 004: "the levels change the decisions, not the deal"."""

    @pytest.mark.parametrize("seed", [3, 11])
    def test_same_seed_same_cards_at_every_level(self, seed: int) -> None:
        games = {level: play_game(Game(seed=seed), [level, level], seed) for level in LEVELS}
        played = {level: deals_of(game) for level, game in games.items()}
        common = min(len(deals) for deals in played.values())
        assert common >= 3
        first = played["easy"][:common]
        assert played["medium"][:common] == first
        assert played["hard"][:common] == first
        # The decisions do differ: the games do not all end the same way.
        outcomes = {(game.scores, game.deal_number) for game in games.values()}
        assert len(outcomes) > 1

    def test_same_seed_same_decisions_same_game(self) -> None:
        for kinds in (["hard", "medium"], ["easy", "hard"]):
            first = play_game(Game(seed=21), kinds, 5)
            again = play_game(Game(seed=21), kinds, 5)
            assert first.events == again.events

    def test_a_decision_depends_only_on_the_seed_and_the_view(self) -> None:
        game = Game(seed=8)
        play_game_until_play(game)
        view = game.view(game.to_act[0])
        player = HardPlayer(4)
        assert player.choose(view) == player.choose(view) == HardPlayer(4).choose(view)


def play_game_until_play(game: Game) -> None:
    player = MediumPlayer(0)
    while game.to_act and game.phase.value == "discard":
        seat = game.to_act[0]
        game.apply(seat, player.choose(game.view(seat)))


# --------------------------------------------------------------------------- views only


class SpyPlayer:
    """Wraps a level and records what it was given."""

    def __init__(self, inner: LevelPlayer) -> None:
        self.inner = inner
        self.given: list[object] = []

    def choose(self, view: SeatView) -> Action:
        self.given.append(view)
        return self.inner.choose(view)


class TestViewsOnly:
    """A computer receives only its seat's view, and its choice cannot depend on hidden cards: two games
    that differ only in cards seat 0 cannot see give seat 0 equal views and equal decisions."""

    SEAT0 = "5H 5D JC QS 4H 6C"
    OTHER_A = "2C 3D 7S 8H 9C KD"
    OTHER_B = "2C 3S 7D 8C TC KH"
    STARTER = "AS"

    def test_players_are_given_views(self) -> None:
        game = Game(seed=2)
        spies = [SpyPlayer(HardPlayer(1)), SpyPlayer(EasyPlayer(2))]
        while game.to_act and game.deal_number < 2:
            seat = game.to_act[0]
            game.apply(seat, spies[seat].choose(game.view(seat)))
        for spy in spies:
            assert spy.given and all(type(view) is SeatView for view in spy.given)

    @pytest.mark.parametrize("level", LEVELS)
    def test_hidden_cards_do_not_change_a_decision(self, level: str, stacked: StackedGame) -> None:
        games = [
            stacked(((self.SEAT0, other), self.STARTER), dealer=1) for other in (self.OTHER_A, self.OTHER_B)
        ]
        # Seat 1 lays away different unseen cards in each game and keeps 2C 3x 7x 8x.
        seat1_discards = [parse_cards("9C KD"), parse_cards("TC KH")]
        decisions = 0
        for _ in range(3):
            views = [game.view(0) for game in games]
            assert views[0] == views[1]
            action = make_player(level, 7).choose(views[0])
            assert make_player(level, 7).choose(views[1]) == action
            decisions += 1
            for game, thrown in zip(games, seat1_discards, strict=True):
                game.apply(0, action)
                if isinstance(action, Discard):
                    game.apply(1, Discard(thrown))
                else:
                    # Seat 1 answers with the same card in both games (its lowest legal one: 2C first).
                    game.apply(1, game.legal_actions(1)[0])
        assert decisions == 3


# --------------------------------------------------------------------------- every variant


VARIANT_RULES = {
    "two": RuleSet(target=61),
    "five-card": RuleSet(cards_dealt=5, target=31),
    "seven-card": RuleSet(cards_dealt=7, target=61),
    "three": RuleSet(seats=3, cards_dealt=5, discards=1, crib_from_pack=1, target=61),
    "four": RuleSet(seats=4, cards_dealt=5, discards=1, target=61),
    "partners": RuleSet(seats=4, cards_dealt=5, discards=1, partnerships=True, target=61),
}


class TestEveryVariant:
    """Random games with random levels at every seat, for each table shape: every game ends, and every
    action the levels take is legal (the engine refuses an illegal one)."""

    @pytest.mark.parametrize("shape", VARIANT_RULES)
    def test_random_games_finish(self, shape: str) -> None:
        rules = VARIANT_RULES[shape]
        profile = Profile(name=f"levels-{shape}", rules=rules)
        rng = random.Random(shape)
        for game_number in range(40):
            kinds = [rng.choice(LEVELS) for _ in range(rules.seats)]
            game = play_game(Game(profile, seed=game_number), kinds, game_number)
            assert game.is_over, (shape, game_number, kinds)

    @pytest.mark.parametrize(
        "name", ["five-card", "seven-card", "three-players", "four-players", "partners", "muggins"]
    )
    def test_shipped_profiles(self, name: str) -> None:
        profile = load_profile(name)
        for seed in range(4):
            kinds = [LEVELS[(seed + seat) % 3] for seat in range(profile.rules.seats)]
            assert play_game(Game(profile, seed=seed), kinds, seed).is_over


# --------------------------------------------------------------------------- fast counting


class TestTally:
    """The levels' fast counts agree with the engine's scorer."""

    def test_show_points(self) -> None:
        rng = random.Random(4)
        for size in (3, 4, 5):
            for _ in range(400):
                cards = rng.sample(FULL_DECK, size + 1)
                crib = rng.random() < 0.5
                expected = score_show(cards[:-1], cards[-1], crib=crib).total
                indices = [c.index for c in cards]
                assert show_points(indices[:-1], indices[-1], crib=crib) == expected
                assert hand_values(indices[:-1], [indices[-1]], crib=crib) == [expected]

    def test_peg_points(self) -> None:
        rng = random.Random(5)
        low = [c for c in FULL_DECK if c.rank <= 7]
        for deck in (FULL_DECK, low):
            for _ in range(600):
                cards = rng.sample(deck, len(deck))
                pile: list[Any] = []
                count = 0
                for card in cards:
                    if count + card.value > 31:
                        break
                    pile.append(card)
                    count += card.value
                    expected = sum(item.points for item in play_items(pile))
                    assert peg_points([RANK[c.index] for c in pile], count) == expected


# --------------------------------------------------------------------------- what each level does


def discard_view(hand: str, *, dealer: int = 0, scores: tuple[int, int] | None = None) -> SeatView:
    """Seat 0's view at the discard of a stacked deal (seat 1 holds cards seat 0 does not)."""
    taken = set(parse_cards(hand))
    other = [c for c in FULL_DECK if c not in taken][:6]
    starter = next(c for c in reversed(FULL_DECK) if c not in taken)
    game = make_stacked_game(((hand, " ".join(map(str, other))), str(starter)), dealer=dealer)
    view = game.view(0)
    return dataclasses.replace(view, scores=scores) if scores is not None else view


def play_view(hand: str, pile: str, *, held: int = 3) -> SeatView:
    """A made-up play view: seat 0 holds ``hand`` (its kept cards) and seat 1 laid ``pile``."""
    base = discard_view("AC 2C 3C 4C 6C 7C")
    cards = parse_cards(hand)
    laid = parse_cards(pile)
    return dataclasses.replace(
        base,
        phase="play",
        hand=tuple(sorted(cards)),
        kept=tuple(sorted(cards)),
        discarded=(),
        held=(len(cards), held),
        starter=parse_card("KD"),
        count=sum(c.value for c in laid),
        pile=tuple((1, c) for c in laid),
        laid=((), laid),
        legal_actions=tuple(Play(c) for c in sorted(cards) if sum(x.value for x in laid) + c.value <= 31),
        events=(),
    )


class TestLevelBehaviour:
    def test_easy_keeps_the_highest_scoring_four(self) -> None:
        # 5-5-J-Q score 8 as they lie; nothing else comes close.
        action = EasyPlayer(0).choose(discard_view("5H 5D JC QS 2C 8S"))
        assert action == Discard(parse_cards("2C 8S"))

    def test_easy_plays_the_first_legal_card_without_points(self) -> None:
        assert EasyPlayer(0).choose(play_view("3C 9D KS", "7S")) == Play(parse_card("3C"))
        assert EasyPlayer(0).choose(play_view("3C 8D KS", "7S")) == Play(parse_card("8D"))  # fifteen

    def test_medium_takes_points(self) -> None:
        assert MediumPlayer(0).choose(play_view("3C 8D KS", "7S")) == Play(parse_card("8D"))

    def test_medium_does_not_leave_five_or_twentyone(self) -> None:
        # Leading: a five invites a ten for fifteen.
        assert MediumPlayer(0).choose(play_view("5C 9D 4S", "", held=4)) != Play(parse_card("5C"))
        # On 11: a ten makes 21, where any ten-card makes 31.
        assert MediumPlayer(0).choose(play_view("KC 2D 9S", "JH AS")) != Play(parse_card("KC"))

    def test_hard_discards_by_the_analysis(self) -> None:
        view = discard_view("5H 5D JC QS 4H 6C")
        ranked = HardPlayer(0).rank_discards(view)
        assert HardPlayer(0).choose(view) == Discard(ranked[0][2].discard)
        assert ranked[0][2].kept == parse_cards("4H 5D 5H 6C")

    def test_hard_takes_thirty_one(self) -> None:
        assert HardPlayer(0).choose(play_view("4C 9D AS", "KH QH 7S")) == Play(parse_card("4C"))

    def test_unknown_decision_kind_gets_the_first_legal_action(self) -> None:
        class Mystery:
            pass

        view = dataclasses.replace(discard_view("5H 5D JC QS 4H 6C"), legal_actions=(Mystery(), Mystery()))  # type: ignore[arg-type]
        for level in LEVELS:
            assert make_player(level, 0).choose(view) is view.legal_actions[0]


class TestBoardPosition:
    """Near the end of the game the hard level weighs reaching the target this deal, not only the
    average: here, as the pone needing 16, it keeps the hand that can score 13 or more with some
    starters over the hand with the better average that never does."""

    HAND = "5D 8H TH QH 7C QD"

    def test_the_discard_changes_near_the_end(self) -> None:
        player = HardPlayer(0)
        early = player.choose(discard_view(self.HAND, dealer=1, scores=(40, 40)))
        late = player.choose(discard_view(self.HAND, dealer=1, scores=(105, 100)))
        assert early != late
        _, reach, option = player.rank_discards(discard_view(self.HAND, dealer=1, scores=(105, 100)))[0]
        assert reach > 0 and option.discard == late.cards  # type: ignore[union-attr]

    def test_the_play_counts_pegging_out_as_a_win(self) -> None:
        # Needing one point, every way to play this count ends in the last-card point or more for
        # someone: the search values the play-outs in which seat 0 pegs out first as wins.
        view = play_view("7C 2D", "KH QS 2S", held=2)
        far = HardPlayer(0).rank_plays(dataclasses.replace(view, scores=(50, 50)))
        near = HardPlayer(0).rank_plays(dataclasses.replace(view, scores=(120, 50)))
        assert {e.card for e in far} == {e.card for e in near}
        assert min(e.value for e in near) > max(e.value for e in far) + 10


class TestSampling:
    def test_a_go_limits_what_a_seat_can_hold(self) -> None:
        game = make_stacked_game((("2C 3D 4H 5S 9C TC", "KD QD JD KH QH JH"), "AS"), dealer=1)
        game.apply(0, Discard(parse_cards("9C TC")))
        game.apply(1, Discard(parse_cards("JD JH")))
        for card in ("2C", "KD", "3D", "QD"):
            game.apply(game.to_act[0], Play(parse_card(card)))
        assert go_floors(game.view(0)) == [1, 1]
        game.apply(0, Play(parse_card("4H")))  # 29: seat 1 holds only ten-cards and says go
        view = game.view(0)
        assert any(e.kind == "says-go" and e.seat == 1 for e in view.events)
        assert go_floors(view) == [1, 3]


class TestLowball:
    """Under lowball (reaching the target loses) every level plays for fewer points."""

    def test_views_say_whether_reaching_the_target_wins(self) -> None:
        assert Game(seed=1).view(0).target_wins is True
        assert Game(load_profile("lowball"), seed=1).view(0).target_wins is False

    @pytest.mark.parametrize("level", ["easy", "medium"])
    def test_a_level_beats_itself_playing_for_points(self, level: str) -> None:
        class PlaysForPoints:
            """The same level, told that reaching the target wins."""

            def __init__(self, player: Player) -> None:
                self.player = player

            def choose(self, view: SeatView) -> Action:
                return self.player.choose(dataclasses.replace(view, target_wins=True))

        profile = load_profile("lowball")
        wins = 0
        for seed in range(10):
            for aware in (0, 1):
                game = Game(profile, seed=seed)
                players: list[Player] = [make_player(level, seed * 2 + seat) for seat in (0, 1)]
                players[1 - aware] = PlaysForPoints(players[1 - aware])
                while not game.is_over:
                    seat = game.to_act[0]
                    game.apply(seat, players[seat].choose(game.view(seat)))
                wins += game.winner == aware
        assert wins >= 16
