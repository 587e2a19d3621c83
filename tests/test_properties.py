"""Property tests: thousands of random legal games played to the end, with the rules' invariants checked
after every action and the game's record replayed.

Every game is reproducible from the seed printed in a failing assertion: the deals come from
``Game(seed=seed)`` and the choices from ``RandomPlayer(seed)`` (or from hypothesis, which prints its own
reproduction). The card accounting reads the engine's private crib, which only a test may do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribcore import FULL_DECK, Game, Profile, RuleSet, game_record, load_profile, replay
from cribcore.events import Event
from cribcore.players import Player, RandomPlayer
from cribcore.profiles import builtin_names
from cribcore.scoring import PLAY_LIMIT

BLOCKS = 16
GAMES_PER_BLOCK = 100
REPLAY_EVERY = 4
LOW_TARGET_GAMES = 300
HYPOTHESIS_GAMES = 150

PROFILE_GAMES = 110
CLAIM_KINDS = frozenset({"count", "muggins", "penalty", "missed"})
"""Muggins events: they settle a count, so their points need not equal their items' (see engine)."""


def deal_patterns(seats: int) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Event kinds of one full deal and of a deal cut short by a win (claim events left out)."""
    start = "deal " + "dealt " * seats + f"(discard ){{{seats}}}starter (heels )?((play|says-go|go|reset) )*"
    show = ["hand "] * seats + ["crib "]
    partial = ""
    for part in reversed(show):
        partial = f"({part}{partial})?"
    return re.compile(start + "".join(show).strip()), re.compile(start + partial + "win")


class Invariants:
    """Checks one game after each action and at its end."""

    def __init__(self, game: Game, label: str) -> None:
        self.game = game
        self.label = label
        self.scores = game.scores
        self.seen = 0
        self.running = [0] * game.rules.sides
        self.target = game.rules.target
        self.lowball = "lowball" in game.profile.plugins
        self.check_new_events()

    def fail(self, what: str) -> str:
        return f"{self.label}, deal {self.game.deal_number}, event {len(self.game.events)}: {what}"

    def after_action(self) -> None:
        game = self.game
        views = [game.view(seat) for seat in range(game.rules.seats)]
        log = game.deal_logs()[-1]
        dealt = {card for hand in log.hands for card in hand} | set(log.crib_cards) | {log.starter}
        undealt = [card for card in FULL_DECK if card not in dealt]
        accounted = [
            *(card for view in views for card in view.hand),
            *game._crib,
            *(card for laid in views[0].laid for card in laid),
            log.starter,
            *undealt,
        ]
        assert len(accounted) == 52, self.fail(f"{len(accounted)} cards accounted for")
        assert set(accounted) == set(FULL_DECK), self.fail("a card is missing or doubled")

        hand_size = game.rules.hand_size
        for seat, view in enumerate(views):
            if view.phase == "play":
                assert len(view.hand) + len(view.laid[seat]) == hand_size, self.fail("hand size")
            assert view.held == tuple(len(v.hand) for v in views), self.fail("held counts")

        assert 0 <= game.count <= PLAY_LIMIT, self.fail(f"count {game.count}")
        assert game.count == sum(card.value for _, card in views[0].pile), self.fail("count")

        scores = game.scores
        assert all(new >= old for new, old in zip(scores, self.scores, strict=True)), self.fail(
            f"scores went down from {self.scores} to {scores}"
        )
        self.scores = scores
        self.check_new_events()
        assert tuple(self.running) == scores, self.fail("scores differ from the scored events")

        if game.is_over:
            assert game.to_act == (), self.fail("a seat may act after the game")
        else:
            assert max(scores) < self.target, self.fail(f"{scores} reached the target, not over")
            assert game.to_act, self.fail("nobody may act in an unfinished game")
            for seat, view in enumerate(views):
                assert bool(view.legal_actions) == (seat in game.to_act), self.fail(
                    f"seat {seat} legal actions {view.legal_actions} vs to_act {game.to_act}"
                )

    def check_new_events(self) -> None:
        events = self.game.events
        for event in events[self.seen :]:
            if event.kind == "play":
                assert event.count is not None and event.count <= PLAY_LIMIT, self.fail("count")
            if event.scored:
                assert event.seat is not None
                assert event.kind in CLAIM_KINDS or event.points == sum(i.points for i in event.items), (
                    self.fail(f"{event.kind} points differ from its items")
                )
                self.running[self.game.rules.side_of(event.seat)] += event.points
                assert event.scores == tuple(self.running), self.fail(f"{event} scores")
        self.seen = len(events)

    def at_end(self) -> None:
        game = self.game
        events = game.events
        assert game.is_over, self.fail("the game did not end")
        winner = game.winner
        assert winner is not None
        first = next(i for i, e in enumerate(events) if e.scored and max(e.scores) >= self.target)
        reaching = events[first]
        assert reaching.seat is not None
        reached = game.rules.side_of(reaching.seat)
        assert [s >= self.target for s in game.scores].count(True) == 1, self.fail(f"{game.scores}")
        assert game.scores[reached] >= self.target, self.fail(f"{game.scores}")
        if self.lowball:
            assert winner != reached, self.fail("in lowball the side that reached the target won")
            assert game.scores[winner] == min(game.scores), self.fail(f"lowball winner {winner}")
        else:
            assert winner == reached, self.fail("winner was not first")
        assert first == len(events) - 2, self.fail("the game went on after the target")
        assert events[-1].kind == "win", self.fail(f"last event {events[-1].kind}")
        self.check_deal_order(events)

    def check_deal_order(self, events: tuple[Event, ...]) -> None:
        """Within each deal, scoring follows heels, the play, pone's hand, dealer's hand, the crib."""
        seats = self.game.rules.seats
        full, cut_short = deal_patterns(seats)
        last = events[-1].deal
        for deal in range(last + 1):
            in_deal = [
                e
                for e in events
                if e.deal == deal and e.kind not in ("cut", "compensation") and e.kind not in CLAIM_KINDS
            ]
            if not in_deal or in_deal[0].kind == "win":
                continue  # won before the first deal (the compensation reached the target)
            text = " ".join(e.kind for e in in_deal)
            pattern = cut_short if deal == last else full
            assert pattern.fullmatch(text), self.fail(f"deal {deal} events out of order: {text}")
            dealer = in_deal[0].seat
            assert dealer is not None
            shown = [(e.kind, e.seat) for e in in_deal if e.kind in ("hand", "crib")]
            expected = [("hand", (dealer + k) % seats) for k in range(1, seats + 1)] + [("crib", dealer)]
            assert shown == expected[: len(shown)], self.fail(f"deal {deal} counting order")


def play_checked(game: Game, label: str, players: Sequence[Player]) -> Game:
    checks = Invariants(game, label)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
        checks.after_action()
    checks.at_end()
    return game


def assert_replay_reproduces(game: Game, label: str) -> None:
    record = json.loads(json.dumps(game_record(game)))
    replayed = replay(record)
    # Every event, down to the cut for deal, which the record's seed gives back.
    assert replayed.events == game.events, f"{label}: replay differs"
    assert replayed.scores == game.scores, label
    assert replayed.winner == game.winner, label
    assert replayed.is_over, label


@pytest.mark.parametrize("block", range(BLOCKS))
def test_random_games_keep_every_invariant(block: int) -> None:
    for seed in range(block * GAMES_PER_BLOCK, (block + 1) * GAMES_PER_BLOCK):
        label = f"seed {seed} (Game(seed={seed}), RandomPlayer({seed}) and RandomPlayer({seed + 1}))"
        game = play_checked(Game(seed=seed), label, [RandomPlayer(seed), RandomPlayer(seed + 1)])
        if seed % REPLAY_EVERY == 0:
            assert_replay_reproduces(game, label)


@pytest.mark.parametrize("name", builtin_names())
def test_every_profile_keeps_every_invariant_and_replays(name: str) -> None:
    profile = load_profile(name)
    seats = profile.rules.seats
    for seed in range(PROFILE_GAMES):
        players = [RandomPlayer(seed * 7 + seat) for seat in range(seats)]
        label = f"profile {name}, seed {seed} (RandomPlayer(seed * 7 + seat) per seat)"
        game = play_checked(Game(profile, seed=seed), label, players)
        assert_replay_reproduces(game, label)


def test_low_targets_end_the_game_the_moment_they_are_reached() -> None:
    """Low targets end games on heels, in the play and in every part of the show."""
    endings: set[str] = set()
    for seed in range(LOW_TARGET_GAMES):
        target = 1 + seed % 40
        profile = Profile(name=f"to-{target}", rules=RuleSet(target=target))
        label = f"seed {seed}, target {target}"
        game = play_checked(Game(profile, seed=seed), label, [RandomPlayer(seed), RandomPlayer(seed + 1)])
        endings.add(game.events[-2].kind)
    assert {"heels", "play", "go", "hand", "crib"} <= endings


@settings(
    max_examples=HYPOTHESIS_GAMES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_games_with_hypothesis_choices_keep_every_invariant(seed: int, data: st.DataObject) -> None:
    game = Game(seed=seed)
    label = f"seed {seed} with hypothesis choices"
    checks = Invariants(game, label)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, data.draw(st.sampled_from(game.legal_actions(seat))))
        checks.after_action()
    checks.at_end()
    assert_replay_reproduces(game, label)
