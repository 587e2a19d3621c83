"""The expert's discard near the end of the game: whole deals simulated from each candidate keep.

Far from the target the expert values a discard by its averages (`cribcore.players.expert`): the kept
hand over every starter, the crib as a shift of the usual crib, the pegging as a shift of the usual
pegging. Near the end what wins is which side gets there first, and that depends on how the deal's
points arrive together: a starter that helps the kept hand helps the crib too, low cards peg out
where high ones cannot, and the pone counts first. So there the expert plays the deal out: for each
draw of the other seat's six cards (its split into four kept and two laid away drawn as a sound
player makes it, `cribcore.players.inference.KeepModel`) and of `STARTERS` starters, every candidate keep
is played out by the play-outs' quick rule to the first side reaching the target
(`cribcore.players.pegging.race_ranks`), then the show is counted in order (pone, dealer, crib); an
open deal is valued by the win table at the next deal. The same draws serve every candidate, so their
comparison is not blurred by luck.

Only the two-handed six-card game under the standard play and show and a target that wins: what the
quick rule and the keep model know.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Iterator, Sequence
from itertools import accumulate

from ..cards import STANDARD_CARDS
from ..rulebook import Rulebook
from ..views import SeatView
from .counting import counting_for
from .inference import KeepModel
from .pegging import race_ranks
from .tally import RANK
from .wintable import WinTable

__all__ = ["SPLITS", "STARTERS", "fits", "simulate_keeps"]

STARTERS = 4
"""Starters drawn for each draw of the other seat's hand (the hand, through the pegging and the pone's
count, varies the outcome more than the starter does, and one race serves them all)."""

SPLITS = tuple(
    (tuple(i for i in range(6) if i not in (a, b)), (a, b)) for a in range(6) for b in range(a + 1, 6)
)
"""The fifteen ways to keep four of six (positions kept, positions laid away)."""


def fits(view: SeatView, book: Rulebook) -> bool:
    """Whether ``view``'s discard is one this simulation knows how to play out."""
    rules = view.rules
    return (
        rules.seats == 2
        and len(view.hand) == 6
        and rules.discards == 2
        and book.is_standard_play
        and book.is_standard_show
        and book.play_always_continues
        and book.target_wins
    )


def simulate_keeps(
    view: SeatView,
    keeps: Sequence[tuple[Sequence[int], Sequence[int]]],
    table: WinTable,
    model: KeepModel,
    rng: random.Random,
    draws: int,
    book: Rulebook,
    deals: Sequence[tuple[Sequence[int], Sequence[int], Sequence[int]]] | None = None,
) -> list[float]:
    """The seat's side's chance to win the game after each of ``keeps`` ((kept, laid away) card
    indices), over ``draws`` hands of the other seat, each with `STARTERS` starters, shared by all the
    keeps (see the module docstring).

    ``deals`` replaces the draws with given ones: (the other seat's four kept, its two laid away, the
    starters), card indices (a benchmark's seat that sees the other hand judges its keeps this way)."""
    values_of = counting_for(book).hand_values
    rules = view.rules
    target = rules.target
    me = view.seat
    dealer = view.dealer
    is_dealer = me == dealer
    dealer_side = rules.side_of(dealer)
    dealer_score = view.scores[dealer_side]
    pone_score = view.scores[1 - dealer_side]
    dealer_need = target - dealer_score
    pone_need = target - pone_score
    won = table.won
    start = table.start
    own = {c.index for c in view.hand}
    pool = [c for c in range(STANDARD_CARDS) if c not in own]
    kept_ranks = [sorted(RANK[c] for c in kept) for kept, _ in keeps]
    hands = []  # each keep's show by starter (0 for the seat's own cards)
    for kept, _ in keeps:
        row = [0] * STANDARD_CARDS
        for s, points in zip(pool, values_of(kept, pool, seat=me, dealer=dealer), strict=True):
            row[s] = points
        hands.append(row)
    races: dict[tuple[int, tuple[int, ...]], tuple[int, int, int]] = {}
    totals = [0.0] * len(keeps)
    samples = 0
    for their_kept, their_thrown, starters in deals if deals is not None else _draws(pool, model, rng, draws):
        their_ranks = tuple(sorted(RANK[c] for c in their_kept))
        samples += len(starters)
        theirs = values_of(their_kept, starters, seat=1 - me, dealer=dealer)
        for i, (_, thrown) in enumerate(keeps):
            race = races.get((i, their_ranks))
            if race is None:
                if is_dealer:
                    race = race_ranks(kept_ranks[i], their_ranks, dealer_need, pone_need)
                else:
                    race = race_ranks(their_ranks, kept_ranks[i], dealer_need, pone_need)
                races[(i, their_ranks)] = race
            pegged_d, pegged_p, first = race
            d = dealer_score + pegged_d
            p = pone_score + pegged_p
            if first:
                value = won(p) if first == 1 else 1.0 - won(d)
                totals[i] += (value if is_dealer else 1.0 - value) * len(starters)
                continue
            cribs = values_of([*thrown, *their_thrown], starters, crib=True, seat=dealer, dealer=dealer)
            mine = hands[i]
            total = 0.0
            for s, their_hand, crib in zip(starters, theirs, cribs, strict=True):
                if is_dealer:
                    dealer_hand, pone_hand = mine[s], their_hand
                else:
                    dealer_hand, pone_hand = their_hand, mine[s]
                if p + pone_hand >= target:
                    value = 1.0 - won(d)
                else:
                    e = d + dealer_hand + crib
                    # The next deal is the pone's: its dealer's chance is the old pone's.
                    value = won(p + pone_hand) if e >= target else 1.0 - start(p + pone_hand, e)
                total += value
            totals[i] += total if is_dealer else len(starters) - total
    return [t / samples for t in totals]


def _draws(
    pool: list[int], model: KeepModel, rng: random.Random, draws: int
) -> Iterator[tuple[list[int], list[int], list[int]]]:
    """``draws`` deals of the other seat from ``pool``: (its four kept, its two laid away, `STARTERS`
    starters), its six drawn uniformly and split as ``model`` says."""
    for _ in range(draws):
        six = sorted(rng.sample(pool, 6), key=RANK.__getitem__)
        k_pos, t_pos = SPLITS[_split_of(model, tuple(RANK[c] for c in six), rng)]
        starters = rng.sample([c for c in pool if c not in six], STARTERS)
        yield [six[i] for i in k_pos], [six[i] for i in t_pos], starters


_SPLIT_WEIGHTS: dict[tuple[bool, float, tuple[int, ...]], list[float]] = {}
"""Cumulative `SPLITS` weights by the keep model's settings and six ranks (sorted), filled on use."""


def _split_of(model: KeepModel, six: tuple[int, ...], rng: random.Random) -> int:
    """A split of six cards sorted by rank (``six``: their ranks), drawn as ``model`` says."""
    key = (model.own, model.beta, six)
    cumulative = _SPLIT_WEIGHTS.get(key)
    if cumulative is None:
        # The model reads card indices by rank alone: stand-ins of these ranks do.
        cards = [(r - 1) * 4 + i % 4 for i, r in enumerate(six)]
        weights = [model([cards[i] for i in k], [cards[i] for i in t]) for k, t in SPLITS]
        cumulative = _SPLIT_WEIGHTS[key] = list(accumulate(weights))
    return bisect(cumulative, rng.random() * cumulative[-1])
