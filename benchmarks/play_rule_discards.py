"""How often the hard level's discard changes when it knows a house play rule.

For each seed, the first deal of a game under the standard profile plus the house rule (the test plugins
of ``tests/house_rules.py``, registered in this process): both seats' discards as the hard level that
plays by the game's rulebook chooses them, and as the same level told the standard rules
(``HardPlayer(seed, rulebook=standard_rulebook())``) chooses them on the same view. Prints the share of
discards that differ with a 95 % interval (Wilson). The profile's pegging table is built first (or read
from the data directory: set ``CRIBCORE_DATA_DIR`` to keep it out of the user's).

Run: ``python benchmarks/play_rule_discards.py [--deals 300] [--rule pairs-six] [--first-seed 0]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Last, only to find tests/house_rules.py: cribcore itself comes from the installed package, never from
# the checkout put before it.
sys.path.append(str(ROOT))

from cribcore import Game, Profile, load_profile  # noqa: E402
from cribcore.players.hard import HardPlayer  # noqa: E402
from cribcore.players.pegtable import peg_table_for  # noqa: E402
from cribcore.rulebook import rulebook_for, standard_rulebook  # noqa: E402
from tests import house_rules  # noqa: E402  (the test plugins)

RULES = (house_rules.PAIRS_SIX, house_rules.PLAY_FLUSH)


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of ``hits`` out of ``n``."""
    z = 1.96
    centre = (hits + z * z / 2) / (n + z * z)
    half = z * math.sqrt(hits * (n - hits) / n + z * z / 4) / (n + z * z)
    return centre - half, centre + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="first deals (300; two discards each)")
    parser.add_argument("--rule", choices=RULES, default=house_rules.PAIRS_SIX, help="the house play rule")
    parser.add_argument("--first-seed", type=int, default=0, help="seeds first, first+1, ... (0)")
    args = parser.parse_args(argv)
    house_rules.install([args.rule])
    base = load_profile()
    profile = Profile(name=args.rule, rules=base.rules, plugins=(args.rule,))
    start = time.perf_counter()
    peg_table_for(rulebook_for(profile))
    print(f"{args.rule}: pegging table ready in {time.perf_counter() - start:.1f} s", flush=True)
    told = standard_rulebook()
    differ = total = 0
    for seed in range(args.first_seed, args.first_seed + args.deals):
        game = Game(profile, seed=seed)
        for seat in range(2):
            view = game.view(seat)
            aware = HardPlayer(seed * 2 + seat).discard(view)
            blind = HardPlayer(seed * 2 + seat, rulebook=told).discard(view)
            differ += aware != blind
            total += 1
    low, high = wilson(differ, total)
    print(
        f"{args.rule}: {differ} of {total} hard discards differ from the rule-blind level's = "
        f"{differ / total:.1%} (95% interval {low:.1%} to {high:.1%}), seeds {args.first_seed} to "
        f"{args.first_seed + args.deals - 1}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
