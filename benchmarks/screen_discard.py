"""Screen a change to the expert's discard cheaply: the same deals discarded two ways, points compared.

For each deal (the first deal of game ``i``, from 0-0) and each seat of the expert, the expert's
discard is chosen by a baseline expert (``--base`` pegging weight) and by a candidate (``--weight``);
where they agree the deal counts as 0, else the deal is played out twice from there, once with each
discard, both seats playing by the hard level (the same seeds, so the play differs only by the cards
kept) and the opponent discarding as the hard level does. Reported: the share of deals where the
discards differ and the candidate's gain in net points per deal (its side's points in the deal less
the opponent's, hand, crib and pegging; the show averaged over every starter unless
``--actual-starter``), with a 95 % interval over all deals (zeros included).

Run: ``nice -n 10 python benchmarks/screen_discard.py --deals 400 --seed 21 --weight 1.0``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from cribcore.actions import Action, Discard
from cribcore.engine import Game, standard_profile
from cribcore.players import expert
from cribcore.players.expert import ExpertPlayer
from cribcore.players.hard import HardPlayer
from cribcore.players.pegtable import table_from_json
from cribcore.players.tally import hand_values
from cribcore.simulate import game_seed, player_seed


def deal_net(gseed: int, expert_seat: int, discard: Action, exact_show: bool) -> float:
    """The expert seat's points less the opponent's over the first deal, the expert laying ``discard``
    away and both seats playing as the hard level. With ``exact_show`` the show (hands and crib) is
    averaged over every starter the deal could have had (the play does not depend on it but for his
    heels, which both ways share), which takes the starter's luck out of the comparison."""
    game = Game(standard_profile(), seed=gseed, players=["a", "b"])
    players = [HardPlayer(player_seed(gseed, seat)) for seat in range(2)]
    kept: list[list[int]] = [[], []]
    crib: list[int] = []
    while not game.is_over and game.deal_number == 0:
        seat = game.to_act[0]
        view = game.view(seat)
        if seat == expert_seat and isinstance(view.legal_actions[0], Discard):
            action = discard
        else:
            action = players[seat].choose(view)
        game.apply(seat, action)
        if not crib and game.deal_number == 0 and all(game.view(s).kept for s in (0, 1)):
            for s in (0, 1):
                kept[s] = [c.index for c in game.view(s).kept]
                crib += [c.index for c in game.view(s).discarded]
    if not exact_show:
        scores = game.scores
        return scores[expert_seat] - scores[1 - expert_seat]
    pegged = [0, 0]
    for event in game.events:
        if event.deal != 0:
            continue
        if event.kind in ("play", "go") and event.scored and event.points and event.seat is not None:
            pegged[event.seat] += event.points
    known = {*kept[0], *kept[1], *crib}
    starters = [c for c in range(52) if c not in known]
    mine = hand_values(kept[expert_seat], starters)
    theirs = hand_values(kept[1 - expert_seat], starters)
    cribs = hand_values(crib, starters, crib=True)
    sign = 1 if game.dealer == expert_seat else -1
    show = sum(m - t + sign * c for m, t, c in zip(mine, theirs, cribs, strict=True)) / len(starters)
    return pegged[expert_seat] - pegged[1 - expert_seat] + show


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--weight", type=float, default=1.0, help="the candidate's pegging weight")
    parser.add_argument("--base", type=float, default=0.0, help="the baseline's pegging weight")
    parser.add_argument(
        "--peg-table", type=Path, help="a pegging table file to screen instead of the shipped one"
    )
    parser.add_argument(
        "--actual-starter", action="store_true", help="score the deal's own starter, not every starter"
    )
    args = parser.parse_args(argv)
    if args.peg_table is not None:
        screened = table_from_json(args.peg_table.read_text(encoding="utf-8"))
        setattr(expert, "peg_table", lambda: screened)  # noqa: B010  (the expert reads it by this name)
    began = time.process_time()
    gains: list[float] = []
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
            exact = not args.actual_starter
            gains.append(deal_net(gseed, seat, cand, exact) - deal_net(gseed, seat, base, exact))
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
