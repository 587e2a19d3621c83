"""Screening the expert's play: single deals, duplicate, a variant of the expert against a baseline.

Deal ``i`` (its game seed from ``--seed``) is played from the same scores four times against the same
opponent (``hard`` by default): the variant as dealer and as pone, the baseline as dealer and as pone.
With ``--opponent base`` the variant plays the baseline itself instead, from both seats (the same
discards, so every difference is the play's). Both experts discard alike (the discard does not depend on
the play knobs), so what differs is the play. For each run the script reports, per deal and from the
expert's side, averaged over its two seats: the net pegging points (its pegging minus the opponent's),
the net points of the whole deal and the change in its chance to win the game by the shipped win table
(the next deal's start, or 1 and 0 once a side reaches 121); and the variant's gain over the baseline on
the same deals, with its 95 % interval (paired by deal, so the luck of the cards cancels).

``--scores zero`` starts every deal at 0-0; ``random`` (the default) draws the dealer's and the
pone's scores uniformly from 0 to 118 per deal, so end-of-game play counts as it does in games;
``late`` draws both from 86 to 118, the end of the game alone.

``--decisions K`` judges decisions instead of deals, far more finely: the base expert plays each deal
against the opponent from both seats; at each of its plays where the variant would lay another card,
both cards are played on and the rest of the deal is played out ``K`` times (players seeded anew) on
the true hands, by the base expert and the opponent; the report is the variant's gain in win chance
per deal (the difference of the two cards' outcomes, 0 where they agree), with its 95 % interval.
The luck of the cards and most of the players' own noise cancel: only the decisions differ.
``--phase discard`` (or ``both``) judges the expert's discards the same way. A discard is one
decision on one deal's cards, so the true deal says little about it; with ``--redeal`` each of the two
discards is played on ``K`` fresh deals instead: the seat keeps its six, the other seat's six and the
starter are dealt anew from the rest (the same ``K`` deals for both discards), the other seat discards
as its level does, and the deal is played out. The luck of the unseen cards then averages out too.

A variant is ``name=value`` settings of `cribcore.players.expert.ExpertPlayer` separated by commas
(e.g. ``rollouts=2400,infer=1``); ``--base`` is the baseline's (default: none, the expert as
shipped). Run: ``nice -n 10 python benchmarks/bench_expert_play.py --deals 1000 --jobs 2 --variant
rollouts=2400``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor

from cribcore.actions import Action
from cribcore.cards import STANDARD_CARDS, Card
from cribcore.deals import CutResult, DealCards, DealSource, FirstDealerGiven
from cribcore.engine import Game, standard_profile
from cribcore.players.expert import ExpertPlayer
from cribcore.players.registry import make_player
from cribcore.players.tally import card_of
from cribcore.players.wintable import WinTable, shipped_table
from cribcore.rules import RuleSet
from cribcore.simulate import game_seed, player_seed
from cribcore.views import SeatView

TOP = 118
"""The highest start score drawn with ``--scores random`` or ``late``."""

LATE = 86
"""The lowest start score drawn with ``--scores late`` (the end of the game, where it is decided)."""


def settings_of(text: str) -> dict[str, object]:
    """``name=value,...`` as keyword arguments (ints and floats read as numbers)."""
    out: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        number: object = value
        for kind in (int, float):
            try:
                number = kind(value)
                break
            except ValueError:
                continue
        out[name.strip()] = number
    return out


def expert_of(seed: int, settings: dict[str, object]) -> ExpertPlayer:
    """An expert with ``settings``; ``hardplay=1`` among them: it plays its cards as the hard level
    does (its discards stay the expert's), to tell the discard's share from the play's."""
    settings = dict(settings)
    hard_play = bool(settings.pop("hardplay", 0))
    player = ExpertPlayer(seed, **settings)  # type: ignore[arg-type]
    if hard_play:
        player.play = player._hard.play  # type: ignore[method-assign]
    return player


def _value(table: WinTable, scores: tuple[int, ...], side: int, dealer: int, over: bool) -> float:
    """The expert side's chance to win from ``scores`` at the start of a deal dealt by ``dealer``."""
    if over:
        if scores[side] >= 121:
            return table.won(scores[1 - side])
        return 1.0 - table.won(scores[side])
    value = table.start(scores[dealer], scores[1 - dealer])
    return value if dealer == side else 1.0 - value


def play_deal(
    seed: int,
    settings: dict[str, object],
    opponent: str | dict[str, object],
    start: tuple[int, int],
    seat: int,
) -> tuple[float, float, float]:
    """One deal with the expert (``settings``) at ``seat``: its net pegging, net deal points, win gain.

    ``start`` is (dealer's score, pone's score)."""
    table = shipped_table()
    game = Game(standard_profile(), seed=seed, players=["a", "b"])
    dealer = game.dealer
    scores = [0, 0]
    scores[dealer], scores[1 - dealer] = start
    # A benchmark's shortcut: the engine has no public way to start a game from given scores.
    game._scores[:] = scores
    game._score_tuple = tuple(scores)
    players = [
        make_player(opponent, player_seed(seed, s))
        if isinstance(opponent, str)
        else expert_of(player_seed(seed, s), opponent)
        for s in range(2)
    ]
    players[seat] = expert_of(player_seed(seed, seat), settings)
    before = tuple(scores)
    while not game.is_over and game.deal_number == 0:
        s = game.to_act[0]
        game.apply(s, players[s].choose(game.view(s)))
    after = game.scores
    pegged = before
    for event in game.view(seat).events:
        if event.deal == 0 and event.kind in ("hand", "crib"):
            break
        if event.deal == 0 and event.scores and len(event.scores) == 2:
            pegged = event.scores
    other = 1 - seat
    peg = (pegged[seat] - before[seat]) - (pegged[other] - before[other])
    net = (after[seat] - before[seat]) - (after[other] - before[other])
    win_before = _value(table, before, seat, dealer, False)
    win_after = _value(table, after, seat, 1 - dealer, game.is_over)
    return peg, net, win_after - win_before


def _start_game(seed: int, start: tuple[int, int], deals: DealSource | None = None) -> Game:
    """A game of ``seed`` (or dealt by ``deals``) whose first deal starts at ``start``."""
    game = Game(standard_profile(), seed=seed, players=["a", "b"], deals=deals)
    dealer = game.dealer
    scores = [0, 0]
    scores[dealer], scores[1 - dealer] = start
    game._scores[:] = scores  # as in `play_deal`
    game._score_tuple = tuple(scores)
    return game


def _finish(
    seed: int,
    start: tuple[int, int],
    moves: list[tuple[int, Action]],
    seat: int,
    base: str,
    opponent: str,
    j: int,
) -> float:
    """Replay ``moves`` on a new game, then play the deal out (the base expert at ``seat``, players seeded
    by ``j``); the expert side's win chance after the deal."""
    table = shipped_table()
    game = _start_game(seed, start)
    dealer = game.dealer
    for who, action in moves:
        game.apply(who, action)
    players = [make_player(opponent, player_seed(seed + 7919 * (j + 1), s)) for s in range(2)]
    players[seat] = expert_of(player_seed(seed + 7919 * (j + 1), seat), settings_of(base))
    while not game.is_over and game.deal_number == 0:
        s = game.to_act[0]
        game.apply(s, players[s].choose(game.view(s)))
    return _value(table, game.scores, seat, 1 - dealer, game.is_over)


class _Redeal:
    """Deal 0: ``seat`` holds ``hand``; the other seat's six and the starter drawn from the rest by
    ``rng``; later deals wholly drawn (a `cribcore.deals.DealSource`, behind `FirstDealerGiven`)."""

    def __init__(self, seat: int, hand: tuple[Card, ...], rng: random.Random) -> None:
        self.seat = seat
        self.hand = hand
        self.rng = rng

    def cut(self, rules: RuleSet) -> CutResult:
        raise NotImplementedError  # the first dealer is given

    def deal(self, index: int, dealer: int, rules: RuleSet) -> DealCards:
        held = {c.index for c in self.hand} if index == 0 else set()
        rest = [c for c in range(STANDARD_CARDS) if c not in held]
        drawn = [card_of(c) for c in self.rng.sample(rest, 13 - len(held))]
        hands = [tuple(drawn[:6]), tuple(drawn[6:12])]
        if index == 0:
            hands[self.seat] = self.hand
            hands[1 - self.seat] = tuple(drawn[:6])
        return DealCards(hands=tuple(hands), crib_cards=(), starter=drawn[-1])


def _redealt(
    start: tuple[int, int], view: SeatView, action: Action, base: str, opponent: str, seed: int, j: int
) -> float:
    """``view``'s seat lays ``action`` away from its hand, the other seat's cards and the starter dealt
    anew (the ``j``-th draw of ``seed``), the deal played out by the base expert and the opponent: the
    seat's side's win chance after the deal."""
    table = shipped_table()
    seat = view.seat
    source = _Redeal(seat, view.hand, random.Random(f"redeal/{seed}/{j}"))
    game = _start_game(seed, start, FirstDealerGiven(source, view.dealer))
    players = [make_player(opponent, player_seed(seed + 7919 * (j + 1), s)) for s in range(2)]
    players[seat] = expert_of(player_seed(seed + 7919 * (j + 1), seat), settings_of(base))
    game.apply(seat, action)
    while not game.is_over and game.deal_number == 0:
        s = game.to_act[0]
        game.apply(s, players[s].choose(game.view(s)))
    return _value(table, game.scores, seat, 1 - view.dealer, game.is_over)


def _start(seed: int, scores: str) -> tuple[int, int]:
    """The scores deal ``seed`` starts from: 0 to 0 (``zero``), or drawn from the seed (``random``: 0
    to `TOP` each; ``late``: `LATE` to `TOP` each)."""
    if scores == "zero":
        return (0, 0)
    rng = random.Random(f"start/{seed}")
    low = LATE if scores == "late" else 0
    return (rng.randint(low, TOP), rng.randint(low, TOP))


def decisions(args: tuple[int, int, str, str, str, str, int, str, bool]) -> list[tuple[float, int]]:
    """Deal ``index`` played by the base expert against the opponent, from both seats; at each of the
    expert's plays where the variant would lay another card, both cards are played on, the rest of the
    deal played out ``k`` times by the base expert and the opponent on the true hands: the variant's
    card's win chance less the base's (0 where they agree), as (difference, 1 if they differ)."""
    run_seed, index, variant, base, opponent, scores, k, phase, redeal = args
    phases = ("play", "discard") if phase == "both" else (phase,)
    seed = game_seed(run_seed, index)
    start = _start(seed, scores)
    out: list[tuple[float, int]] = []
    for seat in (0, 1):
        game = _start_game(seed, start)
        players = [make_player(opponent, player_seed(seed, s)) for s in range(2)]
        players[seat] = expert_of(player_seed(seed, seat), settings_of(base))
        other = expert_of(player_seed(seed, seat), settings_of(variant))
        moves: list[tuple[int, Action]] = []
        while not game.is_over and game.deal_number == 0:
            s = game.to_act[0]
            view = game.view(s)
            action = players[s].choose(view)
            if s == seat and view.phase in phases and len(view.legal_actions) > 1:
                chosen = other.choose(view)
                if chosen != action and redeal and view.phase == "discard":
                    values = [
                        statistics.fmean(_redealt(start, view, a, base, opponent, seed, j) for j in range(k))
                        for a in (chosen, action)
                    ]
                    out.append((values[0] - values[1], 1))
                elif chosen != action:
                    values = [
                        statistics.fmean(
                            _finish(seed, start, [*moves, (s, a)], seat, base, opponent, j) for j in range(k)
                        )
                        for a in (chosen, action)
                    ]
                    out.append((values[0] - values[1], 1))
                else:
                    out.append((0.0, 0))
            moves.append((s, action))
            game.apply(s, action)
    return out


def one(args: tuple[int, int, str, str, str, str]) -> list[tuple[float, float, float]]:
    """Deal ``index``: the variant then the baseline, each from both seats, summed over the seats."""
    run_seed, index, variant, base, opponent, scores = args
    seed = game_seed(run_seed, index)
    start = _start(seed, scores)
    out = []
    if opponent == "base":  # head to head: the same discards, so only the play tells them apart
        results = [play_deal(seed, settings_of(variant), settings_of(base), start, seat) for seat in (0, 1)]
        out.append(tuple((a + b) / 2 for a, b in zip(*results, strict=True)))
        return out
    for text in (variant, base):
        settings = settings_of(text)
        results = [play_deal(seed, settings, opponent, start, seat) for seat in (0, 1)]
        out.append(tuple((a + b) / 2 for a, b in zip(*results, strict=True)))
    return out


def summary(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{mean:+.4f} ± {half:.4f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--variant", default="")
    parser.add_argument("--base", default="")
    parser.add_argument("--opponent", default="hard")
    parser.add_argument("--scores", choices=["zero", "random", "late"], default="random")
    parser.add_argument(
        "--phase",
        choices=["play", "discard", "both"],
        default="play",
        help="with --decisions: which of the expert's decisions are judged",
    )
    parser.add_argument(
        "--redeal",
        action="store_true",
        help="with --decisions: judge a discard on K fresh deals of the other cards, not the true deal",
    )
    parser.add_argument(
        "--decisions",
        type=int,
        default=0,
        metavar="K",
        help="judge each play where the variant differs by K play-outs of the true deal",
    )
    args = parser.parse_args(argv)
    if args.decisions:
        jobs = [
            (
                args.seed,
                i,
                args.variant,
                args.base,
                args.opponent,
                args.scores,
                args.decisions,
                args.phase,
                args.redeal,
            )
            for i in range(args.deals)
        ]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                per_deal = list(pool.map(decisions, jobs, chunksize=4))
        else:
            per_deal = [decisions(job) for job in jobs]
        gains = [sum(d for d, _ in deal) / 2 for deal in per_deal]
        differ = sum(n for deal in per_deal for _, n in deal)
        total = sum(len(deal) for deal in per_deal)
        print(
            f"variant [{args.variant}] over base [{args.base}] against {args.opponent}, {args.deals} deals "
            f"({args.scores} scores): win chance per deal {summary(gains)}; "
            f"{differ} of {total} {'decisions' if args.phase == 'both' else args.phase + 's'} differ"
        )
        return 0
    work = [(args.seed, i, args.variant, args.base, args.opponent, args.scores) for i in range(args.deals)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(one, work, chunksize=4))
    else:
        rows = [one(w) for w in work]
    names = ("net pegging", "net points", "win chance")
    if args.opponent == "base":
        figures = "; ".join(f"{name} {summary([r[0][j] for r in rows])}" for j, name in enumerate(names))
        print(f"variant [{args.variant}] against base [{args.base}], {args.deals} deals, per deal: {figures}")
        return 0
    for label, k in ((f"variant [{args.variant}]", 0), (f"base [{args.base}]", 1)):
        figures = "; ".join(f"{name} {summary([r[k][j] for r in rows])}" for j, name in enumerate(names))
        print(f"{label} against {args.opponent}, per deal: {figures}")
    paired = "; ".join(f"{name} {summary([r[0][j] - r[1][j] for r in rows])}" for j, name in enumerate(names))
    print(f"variant minus base, {args.deals} deals ({args.scores} scores): {paired}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
