"""A level's decision time under a wild-card profile (by default one-eyed jacks: J♠ and J♥ wild in the
show, examples/one-eyed-jacks).

The positions: seeded games of the medium level against itself under the profile (``Game(profile,
seed=1000 + g)``, medium players seeded ``2g`` and ``2g + 1``). At every discard (and every play with
more than one legal card) the level (``make_player(level, 7)``) is asked what it would do, and the CPU
time of that one call is noted. Game 0 only warms up (it builds the profile's crib table, when the
level uses one, and fills the caches); it is not counted. Printed: the median and the 99th percentile
of each kind, and how many of the discards held a wild card.

The one-eyed-jacks plugin is registered in this process from examples/ when it is not installed, so a
plain checkout runs it. Run it niced on a quiet machine:
``nice -n 10 python benchmarks/bench_wild.py [--profile FILE] [--level hard] [--games 20]``.
Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from importlib.metadata import EntryPoint
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "one-eyed-jacks"
PROFILE = EXAMPLE / "one-eyed-jacks.toml"


def register_example() -> None:
    """Make the one-eyed-jacks example loadable in this process when it is not installed."""
    from cribcore import pluginmanager

    real = pluginmanager.available()
    if "one-eyed-jacks" in real:
        return
    name = "cribcore_one_eyed_jacks"
    spec = importlib.util.spec_from_file_location(name, EXAMPLE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    entry = EntryPoint(
        name="one-eyed-jacks", value=f"{name}:OneEyedJacks", group=pluginmanager.ENTRY_POINT_GROUP
    )
    pluginmanager.available = lambda: {**real, "one-eyed-jacks": entry}
    pluginmanager.clear_caches()


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--profile", type=Path, default=PROFILE, help="profile file (one-eyed jacks)")
    parser.add_argument("--level", default="hard", help="the level timed (hard)")
    parser.add_argument("--games", type=int, default=20, help="timed games of positions (20)")
    args = parser.parse_args(argv)
    register_example()
    from cribcore.engine import Game
    from cribcore.players import make_player
    from cribcore.profiles import load_profile
    from cribcore.rulebook import rulebook_for

    profile = load_profile(args.profile)
    wild = rulebook_for(profile).wild_cards.stands_for
    level = make_player(args.level, 7)
    times: dict[str, list[float]] = {"play": [], "discard": []}
    holding_wild = 0
    for g in range(args.games + 1):
        game = Game(profile, seed=1000 + g)
        players = [make_player("medium", 2 * g + s) for s in range(game.rules.seats)]
        while not game.is_over:
            seat = game.to_act[0]
            view = game.view(seat)
            actions = view.legal_actions
            kind = type(actions[0]).__name__.lower()
            if len(actions) > 1 and kind in times:
                start = time.process_time()
                level.choose(view)
                spent = (time.process_time() - start) * 1000
                if g:
                    times[kind].append(spent)
                    holding_wild += kind == "discard" and any(card in wild for card in view.hand)
            game.apply(seat, players[seat].choose(view))
    print(f"{args.level} under {profile.name}, {args.games} games (CPU ms per decision)")
    for kind, values in times.items():
        if values:
            print(
                f"  {kind:8} n={len(values):5}  median {statistics.median(values):7.2f}"
                f"  p99 {p99(values):7.2f}  max {max(values):7.2f}"
            )
    print(f"  discards holding a wild card: {holding_wild} of {len(times['discard'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
