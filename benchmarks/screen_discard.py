"""Screen a change to the expert's discard cheaply: the same deals discarded two ways, points compared.

For each deal (the first deal of game ``i``, from 0-0) and each seat of the expert, the expert's
discard is chosen by a baseline expert (``--base`` pegging weight) and by a candidate (``--weight``);
where they agree the deal counts as 0, else the deal is played out twice from there, once with each
discard, both seats playing by the hard level (the same seeds, so the play differs only by the cards
kept) and the opponent discarding as the hard level does. Reported: the share of deals where the
discards differ and the candidate's gain in net points per deal (its side's points in the deal less
the opponent's, hand, crib and pegging), with a 95 % interval over all deals (zeros included).

Run: ``nice -n 10 python benchmarks/screen_discard.py --deals 400 --seed 21 --weight 1.0``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cribcore.actions import Action, Discard
from cribcore.engine import Game, standard_profile
from cribcore.players.expert import ExpertPlayer
from cribcore.players.hard import HardPlayer
from cribcore.simulate import game_seed, player_seed


def deal_net(gseed: int, expert_seat: int, discard: Action) -> int:
    """The expert seat's points less the opponent's over the first deal, the expert laying ``discard``
    away and both seats playing as the hard level."""
    game = Game(standard_profile(), seed=gseed, players=["a", "b"])
    players = [HardPlayer(player_seed(gseed, seat)) for seat in range(2)]
    while not game.is_over and game.deal_number == 0:
        seat = game.to_act[0]
        view = game.view(seat)
        if seat == expert_seat and isinstance(view.legal_actions[0], Discard):
            action = discard
        else:
            action = players[seat].choose(view)
        game.apply(seat, action)
    scores = game.scores
    return scores[expert_seat] - scores[1 - expert_seat]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--weight", type=float, default=1.0, help="the candidate's pegging weight")
    parser.add_argument("--base", type=float, default=0.0, help="the baseline's pegging weight")
    args = parser.parse_args(argv)
    began = time.process_time()
    gains: list[int] = []
    differ = 0
    for index in range(args.deals):
        gseed = game_seed(args.seed, index)
        for seat in (0, 1):
            game = Game(standard_profile(), seed=gseed, players=["a", "b"])
            while seat not in game.to_act:
                other = game.to_act[0]
                game.apply(other, HardPlayer(player_seed(gseed, other)).choose(game.view(other)))
            view = game.view(seat)
            pseed = player_seed(gseed, seat)
            base = ExpertPlayer(pseed, peg_weight=args.base).decide(view).action
            cand = ExpertPlayer(pseed, peg_weight=args.weight).decide(view).action
            if base == cand:
                gains.append(0)
                continue
            differ += 1
            gains.append(deal_net(gseed, seat, cand) - deal_net(gseed, seat, base))
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5
    print(
        f"weight {args.weight} vs {args.base}: {len(gains)} deals, discards differ in {differ} "
        f"({differ / len(gains):.0%}); gain {mean:+.3f} points per deal (95 % {mean - half:+.3f} to "
        f"{mean + half:+.3f}); {time.process_time() - began:.0f} s CPU"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
