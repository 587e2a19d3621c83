"""Screen the weight the hard level gives a play rule in its discard: the same deals discarded two ways.

Under a profile whose play scores otherwise (default: the test rule ``pairs-six``, tests/data/pairs-six.toml),
for the first deal of each seed and each seat, the hard level's discard is chosen with the play rule's
term weighed ``--weight`` and weighed ``--base`` (`cribcore.players.hard.PLAY_RULE_WEIGHT`; 0 discards as
the rule-blind level does on a first deal). Where they agree the seat-deal counts as 0; else the deal
is played out twice from there, once with each discard: the seat plays as the hard level that knows
the rule, the other seat as the hard level told the standard rules (as in bench_house_rules.py), the
same seeds, so the play differs only by the cards kept. Reported: the share of discards that differ;
over those, what the tables promised (the play rule's term of the ``--weight`` keep less the ``--base``
keep's, unweighted) against what the play gave (the seat's pegging less the other's, the ``--weight``
way less the ``--base`` way) and the show (hands and crib averaged over every starter the deal could
have had, which takes the starter's luck out); and the net gain per seat-deal (zeros included) with its
95 % interval.

Run: ``CRIBCORE_DATA_DIR=/tmp/bench-data nice -n 10 python benchmarks/screen_play_rule.py --deals 4000
--weight 1 --base 0 --first-seed 200000 --workers 2``. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Last, only to find tests/house_rules.py: cribcore itself comes from the installed package.
sys.path.append(str(ROOT))

from cribcore import Game, Profile, load_profile  # noqa: E402
from cribcore.actions import Action, Discard  # noqa: E402
from cribcore.players import hard  # noqa: E402
from cribcore.players.hard import HardPlayer  # noqa: E402
from cribcore.players.pegtable import peg_table_for  # noqa: E402
from cribcore.players.tally import hand_values  # noqa: E402
from cribcore.rulebook import rulebook_for, standard_rulebook  # noqa: E402
from tests import house_rules  # noqa: E402  (the test plugins)

profile: Profile | None = None
SHIPPED = hard.PLAY_RULE_WEIGHT


def _start(path: str) -> None:
    global profile
    house_rules.install()
    profile = load_profile(Path(path))


def deal_net(seed: int, seat: int, discard: Action) -> tuple[int, float]:
    """(the seat's pegging less the other's, its show less the other's averaged over every starter) in
    the first deal of game ``seed``, the seat laying ``discard`` away."""
    assert profile is not None
    game = Game(profile, seed=seed)
    told = standard_rulebook()
    players = [HardPlayer(seed * 2 + s, rulebook=None if s == seat else told) for s in range(2)]
    kept: list[list[int]] = [[], []]
    crib: list[int] = []
    pegged = [0, 0]
    while not game.is_over and game.deal_number == 0:
        turn = game.to_act[0]
        view = game.view(turn)
        mine = turn == seat and isinstance(view.legal_actions[0], Discard)
        action = discard if mine else players[turn].choose(view)
        for event in game.apply(turn, action):
            if event.kind in ("play", "go") and event.points and event.seat is not None and event.deal == 0:
                pegged[event.seat] += event.points
        if not crib and game.deal_number == 0 and all(game.view(s).kept for s in (0, 1)):
            for s in (0, 1):
                kept[s] = [c.index for c in game.view(s).kept]
                crib += [c.index for c in game.view(s).discarded]
    known = {*kept[0], *kept[1], *crib}
    starters = [c for c in range(52) if c not in known]
    ours = hand_values(kept[seat], starters)
    theirs = hand_values(kept[1 - seat], starters)
    cribs = hand_values(crib, starters, crib=True)
    sign = 1 if game.dealer == seat else -1
    show = sum(m - t + sign * c for m, t, c in zip(ours, theirs, cribs, strict=True)) / len(starters)
    return pegged[seat] - pegged[1 - seat], show


def discard_with(weight: float, view_seed: int, seat: int) -> tuple[Action, float]:
    """The discard with the play rule weighed ``weight``, and its unweighted term."""
    assert profile is not None
    hard.PLAY_RULE_WEIGHT = weight
    view = Game(profile, seed=view_seed).view(seat)
    player = HardPlayer(view_seed * 2 + seat)
    _, _, option = player.rank_discards(view)[0]
    hard.PLAY_RULE_WEIGHT = 1.0
    term = player.play_rule_pegging(view)
    unweighted = term(option) if term is not None else 0.0
    hard.PLAY_RULE_WEIGHT = SHIPPED
    return Discard(option.discard), unweighted


def screen(task: tuple[int, float, float]) -> list[tuple[float, float, float, float]]:
    """Per seat of the seed: (differs, promised, play gain, show gain)."""
    seed, weight, base = task
    rows = []
    for seat in (0, 1):
        cand, cand_term = discard_with(weight, seed, seat)
        was, base_term = discard_with(base, seed, seat)
        if cand == was:
            rows.append((0.0, 0.0, 0.0, 0.0))
            continue
        play1, show1 = deal_net(seed, seat, cand)
        play0, show0 = deal_net(seed, seat, was)
        rows.append((1.0, cand_term - base_term, float(play1 - play0), show1 - show0))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--profile", default=str(house_rules.PAIRS_SIX_PROFILE), help="a play rule's profile")
    parser.add_argument("--deals", type=int, default=1000, help="first deals (1000; two seats each)")
    parser.add_argument("--weight", type=float, default=1.0, help="the candidate's weight (1)")
    parser.add_argument("--base", type=float, default=0.0, help="the baseline's weight (0)")
    parser.add_argument("--first-seed", type=int, default=200000, help="seeds first, first+1, ... (200000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    args = parser.parse_args(argv)
    _start(args.profile)
    assert profile is not None
    peg_table_for(rulebook_for(profile))  # built (or read) once, before the workers fork
    began = time.perf_counter()
    tasks = [(seed, args.weight, args.base) for seed in range(args.first_seed, args.first_seed + args.deals)]
    with Pool(args.workers, initializer=_start, initargs=(args.profile,)) as pool:
        rows = [row for part in pool.map(screen, tasks, chunksize=5) for row in part]
    differ = [row for row in rows if row[0]]
    nets = [row[2] + row[3] for row in rows]
    mean = statistics.fmean(nets)
    half = 1.96 * statistics.stdev(nets) / len(nets) ** 0.5
    print(f"weight {args.weight} against {args.base}: discards differ in {len(differ)} of {len(rows)}")
    if differ:
        promised = statistics.fmean(row[1] for row in differ)
        played = statistics.fmean(row[2] for row in differ)
        shown = statistics.fmean(row[3] for row in differ)
        print(
            f"  where they differ: the tables promised {promised:+.3f}, the play gave {played:+.3f}, "
            f"the show {shown:+.3f}"
        )
    print(
        f"  net gain {mean:+.3f} points per seat-deal (95 % {mean - half:+.3f} to {mean + half:+.3f}); "
        f"seeds {args.first_seed} to {args.first_seed + args.deals - 1}, {time.perf_counter() - began:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
