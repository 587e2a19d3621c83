"""How much seeing the other hand is worth to the expert: a ceiling for modelling the opponent.

The expert plays duplicate games against a level (``medium`` by default; game ``i`` twice on the same
deals, the expert at seat 1 then at seat 2, seeded as `cribcore.simulate` seeds them), except that it
sees the other seat's cards:

- in the play (``--see play`` or ``both``), its search draws the other seat's hand once, the true one,
  with the crib's true cards: every candidate card is played out against the cards really held;
- in the discard (``--see both``), each of its discards is judged on the true deal by
  `cribcore.players.endgame.simulate_keeps`: the other seat's four kept and two laid away (as its level
  lays them) and every starter left, the deal played out to the target by the quick rule and the show
  counted in order.

``--see none`` is the expert as shipped, the reference. ``--see rules`` sees no card but knows that
the other seat plays by ``medium``'s rules: its play search weighs each drawn hand by how likely
medium's rules were to keep it (its discard rule, sharply: `RULES_BETA` per point, by ranks as
`cribcore.players.inference.KeepModel` reads them) and to lay the cards it laid, in order (medium's
play rule, sharply, the unseen cards those of the drawn hand's owner). That is about what recognising
the opponent's rules from its past shows could give the play.

This is a measurement, not a level: no player of the project reads another seat's cards. What a
player could learn of the other hand (from its discards at past shows, from its plays) is at most
what seeing it gives, so if the seeing expert's share stays under a goal, no model of the opponent in
those phases reaches the goal by itself. The play-outs still follow the quick rule for both seats,
so the ceiling is an estimate, not a bound.

Prints the seeing expert's share of the 2 x N games with its 95 % Wilson interval. Run: ``nice
python benchmarks/bench_oracle.py --games 1000 --see both --jobs 2``.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

from cribcore.actions import Action, Discard, Play
from cribcore.cards import STANDARD_CARDS
from cribcore.engine import Game, standard_profile
from cribcore.players import pegging
from cribcore.players.base import Player
from cribcore.players.counting import counting_for
from cribcore.players.endgame import simulate_keeps
from cribcore.players.expert import ExpertPlayer
from cribcore.players.inference import (
    _CARD_RANK_CODE,
    KeepModel,
    keep_model,
    plays_seen,
)
from cribcore.players.medium import crib_guess
from cribcore.players.pegging import KeepLikelihood
from cribcore.players.registry import make_player
from cribcore.players.tally import RANK, VALUE
from cribcore.players.wintable import shipped_table
from cribcore.scoring import PLAY_LIMIT
from cribcore.simulate import game_seed, player_seed, wilson_interval
from cribcore.views import SeatView

_TRUTH: list[tuple[list[list[int]], list[int]] | None] = [None]
"""The other seat's held cards (by seat) and the crib's cards the searching seat has not seen, while a
seeing expert chooses a card; ``None`` otherwise."""

_drawn = pegging._draws


def _seen_draws(view: SeatView, rng: random.Random, *args: object, **kwargs: object) -> Iterator[object]:
    """`cribcore.players.pegging`'s draws, replaced by the one true draw while `_TRUTH` is set."""
    truth = _TRUTH[0]
    if truth is None:
        yield from _drawn(view, rng, *args, **kwargs)  # type: ignore[arg-type]
        return
    hands, crib = truth
    mine = [c.index for c in view.hand]
    yield [mine if s == view.seat else list(h) for s, h in enumerate(hands)], list(crib), 1.0


pegging._draws = _seen_draws  # type: ignore[assignment]


RULES_BETA = 8.0
"""How sharply ``--see rules`` takes the other seat to follow medium's rules (per point of its values)."""


class MediumKeeps(KeepModel):
    """`KeepModel` with medium's crib guess (`cribcore.players.medium.crib_guess`) for the laid cards."""

    def __init__(self, own: bool) -> None:
        super().__init__(own, RULES_BETA)

    def crib_value(self, low: int, high: int) -> float:
        return crib_guess([(low - 1) * 4, (high - 1) * 4 + 1])


_MEDIUM_KEEPS: dict[bool, MediumKeeps] = {}


class MediumPlays:
    """``seen(kept)``: how likely medium's play rule (sharply, `RULES_BETA`) laid the other seat's cards
    of this deal from the hand ``kept`` (see `cribcore.players.medium.MediumPlayer.play`)."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.other = 1 - view.seat
        self.peg = counting_for(view.rulebook).pegger(view.dealer)
        self.plays = plays_seen(view, self.other).plays
        self._by_ranks: dict[int, float] = {}
        self._all_laid = self._laid_order(view)

    @staticmethod
    def _laid_order(view: SeatView) -> list[tuple[int, int]]:
        order: list[tuple[int, int]] = []
        for event in view.events:
            if event.deal == view.deal and event.kind == "play" and event.cards and event.seat is not None:
                order.append((event.seat, event.cards[0].index))
        return order

    def __call__(self, kept: Sequence[int]) -> float:
        code = 0
        for card in kept:
            code += _CARD_RANK_CODE[card]
        chance = self._by_ranks.get(code)
        if chance is None:
            chance = self._by_ranks[code] = self._chance(kept)
        return chance

    def _chance(self, kept: Sequence[int]) -> float:
        chance = 1.0
        hand = list(kept)
        order = self._all_laid
        me = self.view.seat
        for pile, count, card in self.plays:
            # Cards laid so far this deal (before this one), from the full order of plays.
            at = next(i for i, (s, c) in enumerate(order) if c == card)
            before = [c for _, c in order[:at]]
            unseen = [0] + [4] * 13
            assert self.view.starter is not None
            unseen[RANK[self.view.starter.index]] -= 1
            for c in {*before, *kept}:
                unseen[RANK[c]] -= 1
            total_unseen = max(1, sum(unseen))
            held = 4 - sum(1 for s, _ in order[:at] if s == me)
            mine = [RANK[c] for c in hand]
            values: dict[int, float] = {}
            for option in hand:
                after = count + VALUE[option]
                if after > PLAY_LIMIT:
                    continue
                pile_after = [*pile, option]
                value = float(self.peg(pile_after, after, self.other))
                if after < PLAY_LIMIT and held:
                    for rank in range(1, 14):
                        if not unseen[rank] or after + min(rank, 10) > PLAY_LIMIT:
                            continue
                        odds = 1.0 - (1.0 - unseen[rank] / total_unseen) ** held
                        answer = (rank - 1) * 4 + option % 4
                        value -= odds * self.peg([*pile_after, answer], after + min(rank, 10), me)
                        if rank == RANK[option] and mine.count(rank) >= 2:
                            value += odds * 3.0
                values[option] = value + VALUE[option] * 0.01
            if card in values:
                top = max(values.values())
                norm = sum(math.exp(RULES_BETA * (v - top)) for v in values.values())
                chance *= math.exp(RULES_BETA * (values[card] - top)) / norm
            if card in hand:
                hand.remove(card)
        return chance


class Seeing:
    """The expert, seeing the other seat's cards in ``game`` in the phases ``see`` names."""

    def __init__(self, seed: int, game: Game, opponent: Player, see: str) -> None:
        self.expert = ExpertPlayer(seed)
        if see == "rules":
            self.expert._keep_model = self._rules_model  # type: ignore[method-assign]
        self.game = game
        self.opponent = opponent
        self.see = see

    def choose(self, view: SeatView) -> Action:
        other = self.game.view(1 - view.seat)
        first = view.legal_actions[0]
        if isinstance(first, Play) and len(view.legal_actions) > 1 and self.see in ("play", "both"):
            hands: list[list[int]] = [[], []]
            hands[other.seat] = [c.index for c in other.hand]
            _TRUTH[0] = (hands, [c.index for c in other.discarded])
            try:
                return self.expert.choose(view)
            finally:
                _TRUTH[0] = None
        if isinstance(first, Discard) and self.see == "both":
            return self._discard(view, other)
        return self.expert.choose(view)

    @staticmethod
    def _rules_model(view: SeatView) -> KeepLikelihood:
        keeps = _MEDIUM_KEEPS.setdefault(view.seat != view.dealer, MediumKeeps(view.seat != view.dealer))
        plays = MediumPlays(view)

        def model(kept: Sequence[int], thrown: Sequence[int]) -> float:
            chance = keeps(kept, thrown)
            return chance * plays(kept) if chance > 0.0 else 0.0

        return model

    def _discard(self, view: SeatView, other: SeatView) -> Action:
        if other.discarded:
            kept = [c.index for c in other.hand]
            thrown = [c.index for c in other.discarded]
        else:
            action = self.opponent.choose(other)
            assert isinstance(action, Discard)
            thrown = [c.index for c in action.cards]
            kept = [c.index for c in other.hand if c.index not in thrown]
        seen = {c.index for c in view.hand} | set(kept) | set(thrown)
        starters = [c for c in range(STANDARD_CARDS) if c not in seen]
        actions = view.legal_actions
        keeps: list[tuple[Sequence[int], Sequence[int]]] = []
        for action in actions:
            assert isinstance(action, Discard)
            laid = [c.index for c in action.cards]
            keeps.append(([c.index for c in view.hand if c.index not in laid], laid))
        book = view.rulebook
        model = keep_model(view.seat != view.dealer)
        values = simulate_keeps(
            view, keeps, shipped_table(), model, random.Random(0), 0, book, deals=[(kept, thrown, starters)]
        )
        return actions[max(range(len(actions)), key=values.__getitem__)]


def pair(args: tuple[int, int, str, str]) -> int:
    """Game ``index`` of the run played from both seats: how many of the two the seeing expert won."""
    run_seed, index, opponent, see = args
    seed = game_seed(run_seed, index)
    wins = 0
    for seat in (0, 1):
        game = Game(standard_profile(), seed=seed, players=["a", "b"])
        other = make_player(opponent, player_seed(seed, 1 - seat))
        players: list[Player | Seeing] = [other, other]
        players[seat] = Seeing(player_seed(seed, seat), game, other, see)
        while not game.is_over:
            s = game.to_act[0]
            game.apply(s, players[s].choose(game.view(s)))
        wins += game.winner == seat
    return wins


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="duplicate pairs")
    parser.add_argument("--opponent", default="medium")
    parser.add_argument("--see", choices=["none", "rules", "play", "both"], default="both")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    work = [(args.seed, i, args.opponent, args.see) for i in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        wins = sum(pool.map(pair, work, chunksize=8))
    total = 2 * args.games
    low, high = wilson_interval(wins, total)
    print(
        f"expert seeing the other hand ({args.see}) against {args.opponent}: {wins}/{total} = "
        f"{wins / total:.2%} (95 % {low:.2%} to {high:.2%})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
