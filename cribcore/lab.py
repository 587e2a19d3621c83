"""The variant lab: what a house rule does to the game, measured on paired games.

`run_lab` plays, for every index ``i`` of a run, game ``i`` under the profile and under the reference
rules on the same seed (`cribcore.simulate.game_seed`), both seats at one level, so that differences
are measured on the same cards wherever the two rules deal alike. Every `EXTRA_EVERY`-th index also
plays, under each rule, the stronger level against a weaker one (``skill``; seats alternate with the
index) and two duplicate games (seats swapped) of the level told the rules in force against the same
level told the other side's rules (``knowing_the_rule``).

When the profile and the reference are the same rules, the reference side is played on a seed stream
of its own: identical seeds would make every difference exactly 0 and say nothing, while independent
games make each difference's interval a real test that the measurement finds no effect where there is
none.

Every figure is a ratio of integer sums over indices (points over deals, wins over games), and a chunk
of indices returns only integer sums and counts, so merging chunks in any order gives the same totals:
the same seed gives the same figures in this process, in local processes or on Dask
(`cribcore.simulate.run_chunks`).

Each side's interval is 95 %: Wilson's for a proportion of single games
(`cribcore.simulate.wilson_interval`), otherwise the ratio's normal interval by the delta method over
indices, with Student's t quantile. A difference's interval is paired over indices, so that what the two
sides share cancels, and the difference intervals are *simultaneous* (Bonferroni): with ``m`` figures
reported, each is a ``1 - 0.05 / m`` interval, so that all of them hold their true differences with at
least 95 % confidence together. When nothing differs, every difference's interval holds 0 in 95 runs of
100, and a single difference that leaves 0 out can be believed on its own, however many figures a run
reports.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import Game
from .players.registry import LEVELS, make_player
from .profiles import Profile
from .rulebook import Rulebook, rulebook_for
from .seeds import derive_seed
from .simulate import Progress as ProgressCallback
from .simulate import play_out, player_seed, run_chunks, wilson_interval

__all__ = [
    "CONFIDENCE",
    "EXTRA_EVERY",
    "FIGURES",
    "KNOWING_LEVELS",
    "Estimate",
    "Figure",
    "LabResult",
    "LabSetup",
    "LabTally",
    "difference_level",
    "exact_means",
    "run_lab",
    "t_quantile",
    "weaker_level",
]

EXTRA_EVERY = 4
"""Every this many indices, the skill and knowing-the-rule games are played too: enough of them for
their figures, at a fraction of the cost of playing them on every index."""

KNOWING_LEVELS = ("hard", "expert")
"""The levels that can be told rules other than the game's (``rulebook=``), so the lab's levels."""

CONFIDENCE = 0.95
"""The confidence of each side's interval, and of the difference intervals of a run taken together."""

FIGURES: tuple[str, ...] = (
    "deals_per_game",
    "first_dealer_wins",
    "winning_margin",
    "skunk_rate",
    "double_skunk_rate",
    "points_per_deal",
    "play_per_deal",
    "play_dealer_per_deal",
    "play_pone_per_deal",
    "hands_per_deal",
    "hand_dealer_per_deal",
    "hand_pone_per_deal",
    "crib_per_deal",
    "heels_per_deal",
    "other_per_deal",
    "dealt_hand",
    "dealt_crib",
    "skill",
    "knowing_the_rule",
)
"""The figures every run reports, in this order; plugin score kinds add ``kind:NAME`` (points per deal
of items of that kind, for kinds the standard rules do not score)."""

RATES = frozenset({"first_dealer_wins", "skunk_rate", "double_skunk_rate", "skill"})
"""Figures that are a proportion of single games (Wilson intervals for each side)."""

STANDARD_KINDS = frozenset(
    {"fifteen", "pair", "run", "flush", "nobs", "heels", "go", "last card", "thirty-one", "play"}
)
"""Score-item kinds of the standard rules; any other kind scored in a game gets a figure of its own."""

_PLAY_EVENTS = frozenset({"play", "go"})


def weaker_level(level: str) -> str:
    """The level the skill figure sets ``level`` against: the next weaker one (hard: medium)."""
    index = LEVELS.index(level)
    return LEVELS[max(0, index - 1)]


@dataclass(frozen=True, slots=True)
class LabSetup:
    """What every game of a run shares (picklable: it travels to processes and Dask workers)."""

    profile: Profile
    reference: Profile
    level: str = "hard"
    weaker: str = "medium"
    seed: int = 0

    @property
    def independent(self) -> bool:
        """Whether the reference side plays seeds of its own (when both sides are the same rules)."""
        return rulebook_for(self.profile).fingerprint == rulebook_for(self.reference).fingerprint


@dataclass(slots=True)
class Paired:
    """Integer sums for one figure over indices: per index a numerator ``a`` and denominator ``b``
    for the profile (``p``) and the reference (``r``). Enough for both ratios, their delta-method
    variances and the paired variance of their difference."""

    sums: list[int] = field(default_factory=lambda: [0] * 15)

    def add(self, ap: int, bp: int, ar: int, br: int) -> None:
        s = self.sums
        for i, v in enumerate(
            (
                1,
                ap,
                bp,
                ar,
                br,
                ap * ap,
                bp * bp,
                ap * bp,
                ar * ar,
                br * br,
                ar * br,
                ap * ar,
                ap * br,
                bp * ar,
            )
        ):
            s[i] += v
        s[14] += bp * br

    def merge(self, other: Paired) -> None:
        for i, v in enumerate(other.sums):
            self.sums[i] += v


@dataclass(slots=True)
class LabTally:
    """Exact sums over some indices of a run: one `Paired` per figure, and histograms of shown hands,
    cribs and each seat's play points per deal as the games went, per side. ``games`` counts indices
    (the unit of progress)."""

    games: int = 0
    played: int = 0
    figures: dict[str, Paired] = field(default_factory=dict)
    histograms: dict[str, list[Counter[int]]] = field(default_factory=dict)

    def figure(self, name: str) -> Paired:
        found = self.figures.get(name)
        if found is None:
            found = self.figures[name] = Paired()
        return found

    def histogram(self, name: str) -> list[Counter[int]]:
        found = self.histograms.get(name)
        if found is None:
            found = self.histograms[name] = [Counter(), Counter()]
        return found

    def merge(self, other: LabTally) -> None:
        self.games += other.games
        self.played += other.played
        for name, paired in other.figures.items():
            self.figure(name).merge(paired)
        for name, (profile, reference) in other.histograms.items():
            mine = self.histogram(name)
            mine[0].update(profile)
            mine[1].update(reference)


@dataclass(slots=True)
class _GameSums:
    """One game's numerators and denominators by figure, and its histogram entries."""

    values: dict[str, tuple[int, int]]
    histograms: dict[str, list[int]]


def _sample_four(seed: int, deal: int, cards: Sequence[Any]) -> list[Any]:
    # Four of the six dealt, chosen by the seed alone (never by the cards): a uniform random hand.
    order = sorted(range(len(cards)), key=lambda i: derive_seed(seed, "sample", deal, i))
    return [cards[i] for i in sorted(order[:4])]


def _measure(game: Game, book: Rulebook, seed: int) -> _GameSums:
    """The figures one finished two-seat game contributes."""
    rules = game.rules
    deals = game.deal_number + 1
    points: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    hands: list[int] = []
    cribs: list[int] = []
    play_by_deal: Counter[tuple[int, int]] = Counter()
    dealt_hand = dealt_crib = sampled = 0
    dealer: int | None = None
    first_dealer: int | None = None
    dealt: dict[int, tuple[Any, ...]] = {}
    for event in game.events:
        kind = event.kind
        if kind == "deal":
            dealer = event.seat
            if first_dealer is None:
                first_dealer = event.seat
            dealt = {}
        elif kind == "dealt" and event.seat is not None:
            dealt[event.seat] = event.cards
        elif kind == "starter" and dealer is not None and len(dealt) == rules.seats:
            starter = event.cards[0]
            for seat, cards in dealt.items():
                if len(cards) >= 4 and starter not in cards:
                    four = _sample_four(seed, event.deal, cards)
                    hand = book.show_total(four, starter, crib=False, seat=seat, dealer=dealer)
                    crib = book.show_total(four, starter, crib=True, seat=dealer, dealer=dealer)
                    dealt_hand += hand
                    dealt_crib += crib
                    sampled += 1
        if not (event.scored and event.seat is not None):
            continue
        role = "dealer" if event.seat == dealer else "pone"
        if kind in _PLAY_EVENTS:
            points[f"play_{role}"] += event.points
            play_by_deal[(event.deal, event.seat)] += event.points
        elif kind == "hand":
            points[f"hand_{role}"] += event.points
            hands.append(event.points)
        elif kind == "crib":
            points["crib"] += event.points
            cribs.append(event.points)
        elif kind == "heels":
            points["heels"] += event.points
        else:
            points["other"] += event.points
        for item in event.items:
            if item.kind not in STANDARD_KINDS:
                kinds[item.kind] += item.points
    scores = game.scores
    winner = game.winner
    assert winner is not None
    lines = book.skunk_lines
    best_loser = max(
        score - rules.target_of(side) + rules.target for side, score in enumerate(scores) if side != winner
    )
    margin = scores[winner] - rules.target_of(winner) + rules.target - best_loser
    play = points["play_dealer"] + points["play_pone"]
    shown = points["hand_dealer"] + points["hand_pone"]
    values: dict[str, tuple[int, int]] = {
        "deals_per_game": (deals, 1),
        "first_dealer_wins": (int(first_dealer is not None and rules.side_of(first_dealer) == winner), 1),
        "winning_margin": (margin, 1),
        "skunk_rate": (int(best_loser < lines[0]), 1),
        "double_skunk_rate": (int(best_loser < lines[1]), 1),
        "points_per_deal": (sum(points.values()), deals),
        "play_per_deal": (play, deals),
        "play_dealer_per_deal": (points["play_dealer"], deals),
        "play_pone_per_deal": (points["play_pone"], deals),
        "hands_per_deal": (shown, deals),
        "hand_dealer_per_deal": (points["hand_dealer"], deals),
        "hand_pone_per_deal": (points["hand_pone"], deals),
        "crib_per_deal": (points["crib"], deals),
        "heels_per_deal": (points["heels"], deals),
        "other_per_deal": (points["other"], deals),
        "dealt_hand": (dealt_hand, sampled),
        "dealt_crib": (dealt_crib, sampled),
    }
    for name, total in kinds.items():
        values[f"kind:{name}"] = (total, deals)
    return _GameSums(values, {"hand": hands, "crib": cribs, "play": list(play_by_deal.values())})


def _level_player(level: str, seed: int, book: Rulebook | None) -> Any:
    if book is None:
        return make_player(level, seed)
    from .players.expert import ExpertPlayer
    from .players.hard import HardPlayer

    return (ExpertPlayer if level == "expert" else HardPlayer)(seed, rulebook=book)


def _game(profile: Profile, seed: int, players: Sequence[Any], index: int) -> Game:
    return play_out(Game(profile, seed=seed, players=[f"seat {n + 1}" for n in range(2)]), players, index)


def _main_game(setup: LabSetup, profile: Profile, seed: int, index: int) -> _GameSums:
    players = [make_player(setup.level, player_seed(seed, seat)) for seat in range(2)]
    return _measure(_game(profile, seed, players, index), rulebook_for(profile), seed)


def _skill(setup: LabSetup, profile: Profile, seed: int, index: int) -> int:
    """1 when the stronger level wins the game seeded ``seed``; it sits at seat 0 and 1 in turn (the
    skill games are every `EXTRA_EVERY`-th index, so the seat follows their own count)."""
    strong = (index // EXTRA_EVERY) % 2
    kinds = [setup.weaker, setup.weaker]
    kinds[strong] = setup.level
    players = [make_player(kind, player_seed(seed, seat)) for seat, kind in enumerate(kinds)]
    return int(_game(profile, seed, players, index).winner == strong)


def _knowing(setup: LabSetup, profile: Profile, other: Profile, seed: int, index: int) -> int:
    """Games (of two, seats swapped on the same seed) the level playing by ``profile``'s rules wins
    against the same level told ``other``'s rules, in games played by ``profile``."""
    told = rulebook_for(other)
    won = 0
    for knows in range(2):
        players = [
            _level_player(setup.level, player_seed(seed, seat), None if seat == knows else told)
            for seat in range(2)
        ]
        won += int(_game(profile, seed, players, index).winner == knows)
    return won


def play_indices(setup: LabSetup, start: int, stop: int) -> LabTally:
    """Play indices ``start`` to ``stop - 1`` of a run and sum them (the unit of work of every backend)."""
    tally = LabTally()
    independent = setup.independent
    for index in range(start, stop):
        seed = derive_seed(setup.seed, index)
        reference_seed = derive_seed(setup.seed, "reference", index) if independent else seed
        profile = _main_game(setup, setup.profile, seed, index)
        reference = _main_game(setup, setup.reference, reference_seed, index)
        played = 2
        deals = profile.values["points_per_deal"][1], reference.values["points_per_deal"][1]
        for name in {**profile.values, **reference.values}:
            # A plugin kind one side never scored counts 0 points over that side's deals.
            ap, bp = profile.values.get(name, (0, deals[0]))
            ar, br = reference.values.get(name, (0, deals[1]))
            tally.figure(name).add(ap, bp, ar, br)
        for name, entries in profile.histograms.items():
            tally.histogram(name)[0].update(entries)
        for name, entries in reference.histograms.items():
            tally.histogram(name)[1].update(entries)
        if index % EXTRA_EVERY == 0:
            seed = derive_seed(setup.seed, "skill", index)
            reference_seed = derive_seed(setup.seed, "skill-reference", index) if independent else seed
            tally.figure("skill").add(
                _skill(setup, setup.profile, seed, index),
                1,
                _skill(setup, setup.reference, reference_seed, index),
                1,
            )
            seed = derive_seed(setup.seed, "knowing", index)
            reference_seed = derive_seed(setup.seed, "knowing-reference", index) if independent else seed
            tally.figure("knowing_the_rule").add(
                _knowing(setup, setup.profile, setup.reference, seed, index),
                2,
                _knowing(setup, setup.reference, setup.profile, reference_seed, index),
                2,
            )
            played += 6
        tally.games += 1
        tally.played += played
    return tally


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure's value with its interval (95 % for a side, `difference_level` for a difference)."""

    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure for each side and their difference (profile minus reference), over ``indices``."""

    name: str
    profile: Estimate
    reference: Estimate
    difference: Estimate
    indices: int

    @property
    def rate(self) -> bool:
        return self.name in RATES or self.name == "knowing_the_rule"

    def to_json(self) -> dict[str, object]:
        return {
            "profile": self.profile.to_json(),
            "reference": self.reference.to_json(),
            "difference": self.difference.to_json(),
            "indices": self.indices,
        }


def difference_level(figures: int) -> float:
    """The confidence of each difference interval when a run reports ``figures`` of them: Bonferroni's
    ``1 - 0.05 / figures``, so that they all hold their true differences together with 95 % confidence."""
    return 1 - (1 - CONFIDENCE) / max(1, figures)


@functools.lru_cache(maxsize=256)
def t_quantile(level: float, dof: int) -> float:
    """The two-sided ``level`` quantile of Student's t with ``dof`` degrees of freedom: the ``q`` with
    ``P(|T| <= q) = level``, found by bisection on the closed form of that probability for whole
    degrees of freedom (exact for any level, where a table or an expansion is not)."""
    if not 0 < level < 1:
        raise ValueError(f"a confidence level is between 0 and 1, not {level}")
    dof = max(1, dof)
    high = 1.0
    while _t_central(high, dof) < level:
        high *= 2
    low = 0.0
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if _t_central(middle, dof) < level:
            low = middle
        else:
            high = middle
    return high


def _t_central(q: float, dof: int) -> float:
    """``P(|T| <= q)`` for Student's t with ``dof`` (whole) degrees of freedom: with ``θ = atan(q/√dof)``,
    ``2/π (θ + sin θ (cos θ + 2/3 cos³ θ + 2·4/(3·5) cos⁵ θ + …))`` for odd ``dof`` (to ``cos^(dof-2)``),
    ``sin θ (1 + 1/2 cos² θ + 1·3/(2·4) cos⁴ θ + …)`` for even ``dof`` (to ``cos^(dof-2)``)."""
    theta = math.atan(q / math.sqrt(dof))
    cos, sin = math.cos(theta), math.sin(theta)
    square = cos * cos
    total = 0.0
    if dof % 2:
        term = cos
        for j in range((dof - 1) // 2):
            total += term
            term *= square * (2 * j + 2) / (2 * j + 3)
        return min(1.0, 2 / math.pi * (theta + sin * total))
    term = 1.0
    for j in range(dof // 2):
        total += term
        term *= square * (2 * j + 1) / (2 * j + 2)
    return min(1.0, sin * total)


def _estimate(paired: Paired, name: str, level: float) -> Figure:
    """The figure ``name`` from its sums: each side with its 95 % interval, the difference with its
    ``level`` interval (see `difference_level`)."""
    n, ap, bp, ar, br, app, bpp, apbp, arr, brr, arbr, apar, apbr, bpar, bpbr = paired.sums
    if n == 0 or bp == 0 or br == 0:
        nothing = Estimate(0.0, 0.0, 0.0)
        return Figure(name, nothing, nothing, nothing, n)
    rp, rr = ap / bp, ar / br
    mp, mr = bp / n, br / n
    # Sums of squared residuals a - r·b, from the integer sums (the residuals' mean is exactly 0).
    ssp = max(0.0, app - 2 * rp * apbp + rp * rp * bpp) / (mp * mp)
    ssr = max(0.0, arr - 2 * rr * arbr + rr * rr * brr) / (mr * mr)
    cross = (apar - rr * apbr - rp * bpar + rp * rr * bpbr) / (mp * mr)
    dof = max(1, n - 1)
    t = t_quantile(CONFIDENCE, dof)
    sep = math.sqrt(ssp / dof / n)
    ser = math.sqrt(ssr / dof / n)
    sed = math.sqrt(max(0.0, ssp + ssr - 2 * cross) / dof / n)
    if name in RATES:
        profile = Estimate(rp, *wilson_interval(ap, bp))
        reference = Estimate(rr, *wilson_interval(ar, br))
    else:
        profile = Estimate(rp, rp - t * sep, rp + t * sep)
        reference = Estimate(rr, rr - t * ser, rr + t * ser)
    diff = rp - rr
    td = t_quantile(level, dof)
    low, high = diff - td * sed, diff + td * sed
    if name in RATES or name == "knowing_the_rule":
        low, high = max(-1.0, low), min(1.0, high)
    return Figure(name, profile, reference, Estimate(diff, low, high), n)


@dataclass(frozen=True, slots=True)
class LabResult:
    """A run's outcome: its setup, the sums, how it ran, and whether Ctrl-C cut it short."""

    setup: LabSetup
    tally: LabTally
    games: int
    backend: str
    partial: bool = False

    def figure(self, name: str) -> Figure:
        return _estimate(self.tally.figures.get(name, Paired()), name, self.difference_level)

    def names(self) -> tuple[str, ...]:
        """The figures the run reports: `FIGURES` in order, then the plugin kinds by name."""
        extra = sorted(name for name in self.tally.figures if name not in FIGURES)
        return (*FIGURES, *extra)

    @property
    def difference_level(self) -> float:
        """The confidence of each difference interval: `difference_level` of the figures reported."""
        return difference_level(len(self.names()))

    def figures(self) -> list[Figure]:
        """Every figure: `FIGURES` in order, then the plugin kinds by name."""
        return [self.figure(name) for name in self.names()]

    def by_size(self) -> list[Figure]:
        """The figures, largest difference first (measured in the difference's own standard errors,
        so that figures in points and in shares compare)."""

        def size(figure: Figure) -> float:
            half = (figure.difference.high - figure.difference.low) / 2
            return abs(figure.difference.value) / half if half > 0 else 0.0

        return sorted(self.figures(), key=size, reverse=True)

    def distribution(self, name: str) -> tuple[dict[int, int], dict[int, int]]:
        """The histogram ``name`` (``hand``, ``crib`` or ``play``) as the games went, per side."""
        profile, reference = self.tally.histograms.get(name, [Counter(), Counter()])
        return dict(sorted(profile.items())), dict(sorted(reference.items()))

    def to_json(self) -> dict[str, object]:
        setup = self.setup
        return {
            "profile": setup.profile.name,
            "reference": setup.reference.name,
            "games": self.tally.games,
            "games_asked": self.games,
            "games_played": self.tally.played,
            "seed": setup.seed,
            "level": setup.level,
            "weaker": setup.weaker,
            "paired_seeds": not setup.independent,
            "backend": self.backend,
            "partial": self.partial,
            "confidence": CONFIDENCE,
            "difference_level": self.difference_level,
            "figures": {figure.name: figure.to_json() for figure in self.figures()},
            "distributions": {
                name: {
                    "profile": {str(k): v for k, v in p.items()},
                    "reference": {str(k): v for k, v in r.items()},
                }
                for name, (p, r) in ((name, self.distribution(name)) for name in ("hand", "crib", "play"))
            },
            "exact": exact_means(setup),
        }


def exact_means(setup: LabSetup) -> dict[str, dict[str, dict[str, Any]]]:
    """The distributions of every hand and crib by `cribcore.stats_any_rule.show_statistics` (exact
    where the rule allows, else sampled: ``counts[k]`` hands score ``k``) and their means, for each
    side: the means are what ``dealt_hand`` and ``dealt_crib`` estimate."""
    from .stats import flush_rules
    from .stats_any_rule import SampledDistribution, show_statistics

    found: dict[str, dict[str, dict[str, Any]]] = {}
    for side, profile in (("profile", setup.profile), ("reference", setup.reference)):
        book = rulebook_for(profile)
        means: dict[str, dict[str, Any]] = {}
        for name, crib in (("hand", False), ("crib", True)):
            stats = show_statistics(book, 4, crib=crib, rules=flush_rules(profile))
            if isinstance(stats, SampledDistribution):
                low, high = stats.mean_interval
                counts = stats.sample.counts
                figure: dict[str, Any] = {"mean": stats.sample.mean, "low": low, "high": high}
                figure["method"] = "sampled"
            else:
                counts = stats.counts
                figure = {"mean": stats.mean, "method": "exact"}
            figure["counts"] = list(counts)
            means[name] = figure
        found[side] = means
    return found


def _prepare(setup: LabSetup) -> None:
    from .players.tables import prepare

    for profile in (setup.profile, setup.reference):
        prepare(rulebook_for(profile), (setup.level, setup.weaker))


def run_lab(
    setup: LabSetup,
    games: int,
    *,
    jobs: int | None = None,
    dask: str | None = None,
    progress: ProgressCallback | None = None,
) -> LabResult:
    """Play ``games`` indices of ``setup`` (each: one game under each rule, and every `EXTRA_EVERY`-th
    the skill and knowing games) and return the figures. Ctrl-C stops the run and returns what was
    finished, marked partial. Raises `ValueError` for bad arguments or an unusable Dask."""
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    if setup.level not in KNOWING_LEVELS:
        raise ValueError(f"the lab's level is one of {', '.join(KNOWING_LEVELS)}, not {setup.level!r}")
    for profile in (setup.profile, setup.reference):
        if profile.rules.seats != 2:
            raise ValueError(
                f"the lab compares two-player games; {profile.name!r} seats {profile.rules.seats}"
            )
    tally = LabTally()
    play: Callable[[int, int], LabTally] = functools.partial(play_indices, setup)
    backend = "this process"
    partial = False
    try:
        backend = run_chunks(
            play, tally, games, jobs=jobs, dask=dask, progress=progress, prepare=lambda: _prepare(setup)
        )
    except KeyboardInterrupt:
        partial = True
    return LabResult(setup, tally, games, backend, partial=partial or tally.games < games)
