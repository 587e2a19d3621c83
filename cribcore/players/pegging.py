"""The play search of the hard level (and the kernel of stronger ones): sampled hands for the other
seats, then a quick play-out of each card.

A seat cannot see the others' cards, so the search draws them from what the view allows: the cards it
has not seen (not in the seat's own hand, kept or laid-away cards, not the starter, not laid by anyone),
exactly as many for each other seat as the view says it holds, none that a seat's go rules out (a seat
that said go on 25 holds no card worth 6 or less). In the six-card game a draw is also kept in
proportion to how likely its owner was to keep such a hand (`KEEP_WEIGHT`): sound players keep fives,
pairs and fifteens more often than four random cards. For every draw, each legal card is laid and the
rest of the play is played out by every seat with a quick greedy rule (`_score`: the most points now,
minus what a random card would answer with). The same draws serve every candidate card, so their
comparison is not blurred by luck.

The value of a play-out is the seat's side's points minus the average of the other sides' points. Near
the end of the game the play-out also counts the show in the profile's counting order (the crib last)
and a side that reaches the target wins at once: a win is worth `WIN_VALUE` points, so near the end the
search plays to peg out first, or to stop an opponent pegging out, rather than for the average.

The rules come from the game's `cribcore.rulebook.Rulebook` (through `cribcore.players.counting`): the
points of each card laid (`Rulebook.play_points`, for the seat that lays it), whose turn it is and the go
(`cribcore.turns`, the engine's turn rules), whether the play goes on after a count closes
(`Rulebook.play_continues`), the counting order and the show. The quick rule's guess at what a random
card answers with (`COUNT_RISK`, `PAIR_RISK`, `RUN_RISK`) and the keep weights are measured on the
standard count; under a profile whose play scores a fifteen, a pair or a run otherwise, the guesses are
scaled by what it scores for each (`risks_for`), so the other seats of a play-out play by the profile.

Speed. A draw samples card indices from the unseen cards (`draw_unseen`), never shuffling them all.
Under the standard play a play-out keeps the count's last seven ranks as one integer (`_pile_key`: no
run in the play is longer) and looks up each card's points and quick score by it, filled on first use;
a play-out depends on ranks alone there, so candidates of one rank and draws of the same ranks share
one. Other profiles go through the rulebook's scorer: one play-out (`_play_out`) with a fast branch
for the standard play. Both branches give the very values of the plain rule, and
`search_play(..., shuffled=True)` the very draws the hard level made before it sampled: tests replay
recorded games with it.

A caller can value the end of a play-out itself (``leaf``, see `search_play` and `Leaf`): the search
then plays every deal to the end of its show and maximises the average of that value, which is how a
level that plays for the game rather than the points uses this search.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from ..cards import STANDARD_CARDS
from ..deals import shuffle
from ..rulebook import Rulebook
from ..scoring import PLAY_LIMIT
from ..turns import GO_POINTS
from ..views import SeatView
from .counting import Counting, PegScorer, counting_for
from .level import goal
from .rankplay import COUNT_RISK, PAIR_RISK, RUN_RISK, play_risks
from .tally import RANK, SUIT, VALUE, rank_points

__all__ = [
    "ENDGAME_REACH",
    "WIN_VALUE",
    "KeepLikelihood",
    "Leaf",
    "PlayEstimate",
    "Unseen",
    "draw_unseen",
    "go_floors",
    "keep_weight",
    "play_out_ranks",
    "play_twins",
    "quick_score",
    "race_ranks",
    "search_play",
    "unseen_of",
]

Leaf = Callable[[tuple[int, ...], int | None], float]
"""``leaf(side_scores, winner) -> value``: what the end of a play-out is worth to the searching seat's
side (higher is better for it). ``side_scores`` is every side's score, by side, after this deal's play
and show (or at the moment a side reached its target); ``winner`` is the side that reached its target
first (under lowball, the side that loses), or ``None`` when no side did."""

KeepLikelihood = Callable[[Sequence[int], Sequence[int]], float]
"""``likelihood(kept, thrown) -> weight``: how likely the other seat was to keep the four card
indices ``kept`` and lay the two ``thrown`` away (up to a constant factor); see
`cribcore.players.inference.KeepModel`."""

WIN_VALUE = 40.0
"""What winning (or losing) the game at once is worth in the search, in points."""

ENDGAME_REACH = 45
"""A side this close to the target may reach it in this deal's play and show: the search then counts
the show and wins."""

ROLLOUTS = 160
"""Play-outs per decision, shared among the candidate cards (at least `MIN_SAMPLES` draws each)."""

MIN_SAMPLES = 24

PROPOSALS = 4
"""Draws made per draw kept when draws are weighted: the kept ones are chosen among them in proportion
to `KEEP_WEIGHT` (1: no weighting)."""

KEEP_WEIGHT = (0.06, 0.15, 0.33, 0.9, 1.6, 2.0, 3.6, 4.2, 9.0)
"""How much likelier a kept hand of four is than four random cards, by what it scores as it lies (0, 1,
…, 8 or more), when its owner laid two cards away soundly: measured on deals discarded by the hard
level's rule (best average hand plus or minus the crib table). Draws are accepted in proportion."""


REDRAWS = 8
"""How many times a draw weighed by a keep model is drawn again when the model gives it no chance."""

_MEMO_LIMIT = 1 << 20
"""The most entries a lookup table filled on first use keeps before it starts again."""


@dataclass(frozen=True, slots=True)
class PlayEstimate:
    """A candidate card (index) and its average play-out value over the draws."""

    card: int
    value: float
    samples: int


@dataclass(frozen=True, slots=True)
class _Deal:
    """The known facts of the deal, shared by every play-out."""

    seats: int
    side: tuple[int, ...]
    me: int
    sides: int
    scores: tuple[int, ...]
    endgame: bool
    goal: float
    """1 when reaching the target wins, -1 under lowball (see `cribcore.players.level.goal`)."""
    counting: Counting
    """The rules the play-out asks: whether the play goes on after a count closes (not in five-card)."""
    always_continues: bool
    """Whether the play goes on whenever a count closes with cards held (`Counting.always_continues`)."""
    peg: PegScorer
    """The points of a card laid in this deal's play."""
    targets: tuple[int, ...]
    """The points that end the game, by side."""
    leaf: Leaf | None = None
    """The caller's value of a play-out's end (`Leaf`); ``None``: the points difference and `WIN_VALUE`."""
    risks: Risks | None = None
    """The quick rule's guesses at the answers under this deal's play (`risks_for`); ``None``: the
    standard play's."""
    after: tuple[tuple[int, ...], ...] = ()
    """The seats after each seat in turn order, the seat itself last (`_seats_after`)."""


_KEEP_BY_CARDS: dict[int, float] = {}
"""`_keep_weight` by the kept cards' bit set, filled on first use."""


_RANK_COUNT = tuple(1 << (3 * RANK[c]) for c in range(STANDARD_CARDS))
"""A card's share of a multiset-of-ranks code: three bits per rank, so that codes add."""

_POINTS_BY_RANKS: dict[int, int] = {}
"""`rank_points` of a kept hand of four by its multiset-of-ranks code (at most 1,820 of them)."""


_KEEP_BY_RANKS: dict[int, tuple[float, float]] = {}
"""By the multiset-of-ranks code of a kept hand of four: its `KEEP_WEIGHT` without and with a flush."""


def _keep_weights_of(ranks: int, kept: Sequence[int]) -> tuple[float, float]:
    """`_KEEP_BY_RANKS`'s entry for ``ranks``, the code of ``kept`` (filled on first use)."""
    points = rank_points(tuple(sorted(RANK[c] for c in kept)))
    top = len(KEEP_WEIGHT) - 1
    weights = _KEEP_BY_RANKS[ranks] = (KEEP_WEIGHT[min(points, top)], KEEP_WEIGHT[min(points + 4, top)])
    return weights


def _keep_weight(kept: Sequence[int]) -> float:
    """The `KEEP_WEIGHT` of a kept hand of four (card indices, any order)."""
    cards = 0
    ranks = 0
    for card in kept:
        cards |= 1 << card
        ranks += _RANK_COUNT[card]
    weight = _KEEP_BY_CARDS.get(cards)
    if weight is None:
        points = _POINTS_BY_RANKS.get(ranks)
        if points is None:
            points = _POINTS_BY_RANKS[ranks] = rank_points(tuple(sorted(RANK[c] for c in kept)))
        suit = SUIT[kept[0]]
        if all(SUIT[c] == suit for c in kept):
            points += 4
        if len(_KEEP_BY_CARDS) >= _MEMO_LIMIT:
            _KEEP_BY_CARDS.clear()
        weight = _KEEP_BY_CARDS[cards] = KEEP_WEIGHT[min(points, len(KEEP_WEIGHT) - 1)]
    return weight


def go_floors(view: SeatView) -> list[int]:
    """The lowest count value each seat's held cards can have: a seat that said go on a count of
    ``c`` this deal held nothing of value ``31 - c`` or less, and it holds a subset of those cards."""
    floors = [1] * view.rules.seats
    for event in view.events:
        if event.kind == "says-go" and event.deal == view.deal and event.seat is not None:
            assert event.count is not None
            floors[event.seat] = max(floors[event.seat], PLAY_LIMIT - event.count + 1)
    return floors


def _draw_hands(
    view: SeatView, pool: list[int], floors: list[int], rng: random.Random, mine: list[int] | None = None
) -> list[list[int]]:
    """One uniform draw of every other seat's held cards from ``pool``; the cards left over (the
    unseen crib cards among them) are ``pool`` minus those, in random order, left in ``pool``.

    Each seat draws only cards its go's allow (`go_floors`); seats with the tightest limit draw first.
    ``mine`` is the seat's own hand as indices (its entry in the result; computed when ``None``).
    """
    shuffle(rng, pool)  # rng.shuffle's very order, faster
    seats = view.rules.seats
    me = view.seat
    hands: list[list[int]] = [[] for _ in range(seats)]
    hands[me] = mine if mine is not None else [c.index for c in view.hand]
    held_by = view.held
    others = [s for s in range(seats) if s != me and held_by[s]]
    if len(others) > 1:
        others.sort(key=lambda s: -floors[s])
    taken: set[int] = set()
    start = 0
    for seat in others:
        held = held_by[seat]
        floor = floors[seat]
        if start >= 0 and floor <= 1:
            # Nothing skipped so far: the seat takes the next cards of the pool.
            drawn = pool[start : start + held]
            start += held
        else:
            start = -1
            drawn = [c for c in pool if c not in taken and VALUE[c] >= floor][:held]
        if len(drawn) < held:  # the view cannot be explained this way; draw from everything
            start = -1
            drawn = [c for c in pool if c not in taken][:held]
        hands[seat] = drawn
        taken.update(drawn)
    if taken:
        if start >= 0:
            pool[:] = pool[start:] + list(taken)
        else:
            pool[:] = [c for c in pool if c not in taken] + list(taken)
    return hands


Risks = tuple[tuple[float, ...], float, float]
"""The quick rule's guesses at what a random card answers with: by the count after the card (a fifteen
or 31), a pair, a run (`COUNT_RISK`, `PAIR_RISK`, `RUN_RISK` under the standard play)."""

STANDARD_RISKS: Risks = (COUNT_RISK, PAIR_RISK, RUN_RISK)


def risks_for(book: Rulebook) -> Risks:
    """The quick rule's `Risks` under ``book``'s play: the standard guesses scaled by what the profile
    scores for a fifteen, a pair and a run (`cribcore.players.rankplay.play_risks`), so that the other
    seats of a play-out play by the profile."""
    if book.is_standard_play:
        return STANDARD_RISKS
    count, pair, run = play_risks(book)
    return tuple(count * risk for risk in COUNT_RISK), pair * PAIR_RISK, run * RUN_RISK


def _score(
    card: int,
    pile: list[int],
    count: int,
    prev: int,
    peg: PegScorer,
    seat: int,
    risks: Risks = STANDARD_RISKS,
) -> float:
    """The quick rule's value of ``seat`` laying ``card`` on ``pile`` (card indices; ``prev`` is the
    rank of its last card, 0 for none): points now, minus the points a random card would answer with (a
    fifteen or 31, a pair, a run: ``risks``), plus a little for shedding high cards first."""
    value = VALUE[card]
    after = count + value
    rank = RANK[card]
    points = peg([*pile, card], after, seat)
    risk = risks[0][after]
    if after + value <= PLAY_LIMIT:
        risk += risks[1]
    if prev and 0 < abs(rank - prev) <= 2:
        risk += risks[2]
    return points - risk + value * 0.01


def _greedy(
    hand: list[int],
    pile: list[int],
    count: int,
    sign: float,
    peg: PegScorer,
    seat: int,
    risks: Risks = STANDARD_RISKS,
) -> int:
    """The quick rule every seat follows in a play-out: the best `_score` (the worst under lowball)."""
    best = -1
    best_value = -1e9
    room = PLAY_LIMIT - count
    prev = RANK[pile[-1]] if pile else 0
    for card in hand:
        if VALUE[card] > room:
            continue
        score = sign * _score(card, pile, count, prev, peg, seat, risks)
        if score > best_value:
            best_value = score
            best = card
    return best


_RUN_SPAN = 7
"""The most cards a run in the play can span (ace to seven already counts 28): the points of a card
laid depend on the last `_RUN_SPAN` ranks of the count and on the count itself, nothing else."""

_KEY_MASK = (1 << (4 * _RUN_SPAN)) - 1

_POINTS: dict[int, int] = {}
"""The standard play's points (fifteen or 31, pairs, runs; no go) of the card whose pile key and count
after are ``code`` (``key << 5 | after``, see `_quick_score`), filled on first use."""

_QUICK: dict[int, float] = {}
"""`_score` under the standard play by ``pile key << 5 | count after``, filled on first use."""


def _pile_key(ranks: Sequence[int]) -> int:
    """The last `_RUN_SPAN` ranks of a count, four bits each, the last rank lowest (0: no card)."""
    key = 0
    for rank in ranks:
        key = ((key << 4) | rank) & _KEY_MASK
    return key


_PAIR_POINTS = (0, 0, 2, 6, 12)


def _pairs_runs(key: int) -> int:
    """The pairs and runs the last card of the pile ``key`` makes (standard play, no fifteen or 31):
    `cribcore.players.tally.peg_points` read straight off the key's ranks."""
    last = key & 15
    rest = key >> 4
    same = 1
    while rest & 15 == last:
        same += 1
        rest >>= 4
    if same >= 2:
        # A pair means the last two ranks repeat, so no run can score.
        return _PAIR_POINTS[same]
    low = high = last
    seen = 1 << last
    length = 1
    points = 0
    rest = key >> 4
    while rest:
        rank = rest & 15
        bit = 1 << rank
        if seen & bit:
            break
        seen |= bit
        length += 1
        if rank < low:
            low = rank
        elif rank > high:
            high = rank
        if length >= 3 and high - low == length - 1:
            points = length
        rest >>= 4
    return points


_QUICK_LOWBALL: dict[int, float] = {}
"""`_QUICK` negated, for lowball's quick rule (the worst score is its best)."""

_CARD_CODE = tuple((RANK[c] << 5) + VALUE[c] for c in range(STANDARD_CARDS))
"""A card's part of a quick-score code: its rank above five bits, plus its value (added to the count)."""


def _quick_score(code: int, sign: float) -> float:
    """``sign`` times `_score` under the standard play of the card whose pile key and count after are
    ``code`` (``key << 5 | after``): the very same arithmetic, so the very same float. Fills its table
    and `_POINTS` (the card's points) for ``code``."""
    after = code & 31
    key = code >> 5
    rank = key & 15
    prev = (key >> 4) & 15
    value = rank if rank < 10 else 10
    points = _pairs_runs(key) + (2 if after in (15, 31) else 0)
    risk = COUNT_RISK[after]
    if after + value <= PLAY_LIMIT:
        risk += PAIR_RISK
    if prev and 0 < abs(rank - prev) <= 2:
        risk += RUN_RISK
    score = points - risk + value * 0.01
    table = _QUICK if sign > 0 else _QUICK_LOWBALL
    if len(table) >= _MEMO_LIMIT or len(_POINTS) >= _MEMO_LIMIT:
        table.clear()
        _POINTS.clear()
    _POINTS[code] = points
    table[code] = score = sign * score
    return score


def quick_score(pile: Sequence[int], count: int, card: int) -> float:
    """The quick rule's value (`_score` under the standard play) of laying ``card`` on the count
    ``count`` whose cards are ``pile`` (card indices, oldest first); ``card`` must fit the count."""
    key = _pile_key([RANK[c] for c in pile])
    code = (((key << 4) & _KEY_MASK) << 5) + count + _CARD_CODE[card]
    score = _QUICK.get(code)
    return score if score is not None else _quick_score(code, 1.0)


def _points_of(code: int) -> int:
    """`_POINTS` of ``code``, filled (with the quick score) when missing."""
    _quick_score(code, 1.0)
    return _POINTS[code]


_RANK_CODE = tuple((rank << 5) + min(rank, 10) for rank in range(14))
"""A rank's part of a quick-score code (`_CARD_CODE` by rank; 0 unused)."""


def _quick_rank(hand: Sequence[int], key: int, count: int) -> tuple[int, int]:
    """(the rank the quick rule lays from ``hand``, ranks, on the pile ``key`` at ``count``; its code)
    or (0, 0) when none fits the count. Ties: the first."""
    best = code = 0
    best_value = -1e9
    base = (((key << 4) & _KEY_MASK) << 5) + count
    for rank in hand:
        if count + min(rank, 10) > PLAY_LIMIT:
            continue
        candidate = base + _RANK_CODE[rank]
        score = _QUICK.get(candidate)
        if score is None:
            score = _quick_score(candidate, 1.0)
        if score > best_value:
            best_value = score
            best, code = rank, candidate
    return best, code


def play_out_ranks(dealer: Sequence[int], pone: Sequence[int]) -> tuple[int, int]:
    """(dealer's, pone's) pegging when two seats play these ranks (ace 1 ... king 13) by the quick rule
    of the play-outs under the standard play, the pone first, the go and the last card counted: the
    same rule and the same look-ups as `search_play`'s play-outs, on ranks alone."""
    dealt, poned, _ = race_ranks(dealer, pone, _NO_NEED, _NO_NEED)
    return dealt, poned


_NO_NEED = 1 << 30
"""A need no pegging reaches (`race_ranks` then plays every card)."""


def race_ranks(
    dealer: Sequence[int], pone: Sequence[int], dealer_need: int, pone_need: int
) -> tuple[int, int, int]:
    """(dealer's pegging, pone's pegging, who reached their need first: 1 the dealer, 2 the pone, 0
    neither) when two seats play these ranks as `play_out_ranks` does, the play stopping as soon as a
    seat's pegging reaches its need (the points it lacks to win)."""
    hands = [list(pone), list(dealer)]
    needs = (pone_need, dealer_need)
    gains = [0, 0]
    seat = 0
    card, code = _quick_rank(hands[0], 0, 0)
    while True:
        hands[seat].remove(card)
        points = _POINTS.get(code)
        if points is None:
            points = _points_of(code)
        key = code >> 5
        count = code & 31
        nxt = -1
        if count < PLAY_LIMIT:
            best, best_code = _quick_rank(hands[1 - seat], key, count)
            if best:
                nxt = 1 - seat
            else:
                best, best_code = _quick_rank(hands[seat], key, count)
                if best:
                    nxt = seat
                else:
                    points += GO_POINTS  # the go, or the last card
        gains[seat] += points
        if gains[seat] >= needs[seat]:
            return gains[1], gains[0], 2 - seat
        if nxt >= 0:
            seat = nxt
            card, code = best, best_code
            continue
        seat = 1 - seat
        if not hands[seat]:
            seat = 1 - seat
            if not hands[seat]:
                break
        card, code = _quick_rank(hands[seat], 0, 0)
    return gains[1], gains[0], 0


_AFTER: dict[int, tuple[tuple[int, ...], ...]] = {}
"""For a number of seats, the seats after each seat in turn order, the seat itself last."""


def _seats_after(seats: int) -> tuple[tuple[int, ...], ...]:
    known = _AFTER.get(seats)
    if known is None:
        known = _AFTER[seats] = tuple(
            tuple((seat + k) % seats for k in range(1, seats + 1)) for seat in range(seats)
        )
    return known


def _play_out(
    deal: _Deal,
    hands: list[list[int]],
    pile: list[int] | None,
    key: int,
    count: int,
    card: int,
    show: list[tuple[int, int]],
) -> float:
    """Lay ``card`` for the searching seat, play the rest by the quick rule (after each card the seats
    in turn order try, and the first with a card the count has room for lays its best:
    `cribcore.turns.next_able` and `_greedy` in one pass), then (near the end) count ``show``, the
    (side, points) of each hand and the crib in counting order; return the outcome's value.

    One path for every profile, with a fast branch for the standard play (`Counting.standard_play`),
    taken when ``pile`` is ``None``: there the count's cards are kept as their key (``key``, see
    `_pile_key`) and each card's points and quick score are looked up by the key and count it makes
    (`_POINTS`, `_QUICK`), the very values of the rulebook's scorer and of `_score`. Otherwise ``pile``
    holds the cards of the count and the rulebook's scorer (`_Deal.peg`) counts them."""
    side = deal.side
    gains = [0] * deal.sides
    seat = deal.me
    after = deal.after
    sign = deal.goal
    endgame = deal.endgame
    scores = deal.scores
    targets = deal.targets
    leaf = deal.leaf
    peg = deal.peg
    risks = deal.risks or STANDARD_RISKS
    points_of = _POINTS
    quick = _QUICK if sign > 0 else _QUICK_LOWBALL
    value_of = VALUE
    code_of = _CARD_CODE
    mask = _KEY_MASK
    limit = PLAY_LIMIT
    while True:
        hands[seat].remove(card)
        best = -1
        if pile is None:
            code = (((key << 4) & mask) << 5) + count + code_of[card]
            key = code >> 5
            count = code & 31
            points = points_of.get(code)
            if points is None:
                points = _points_of(code)
            if count < limit:
                room = limit - count
                base = (((key << 4) & mask) << 5) + count
                best_value = -1e9
                for nxt in after[seat]:
                    for held in hands[nxt]:
                        if value_of[held] <= room:
                            code = base + code_of[held]
                            score = quick.get(code)
                            if score is None:
                                score = _quick_score(code, sign)
                            if score > best_value:
                                best_value = score
                                best = held
                    if best >= 0:
                        break
                else:
                    points += GO_POINTS  # the go, or the last card
        else:
            pile.append(card)
            count += value_of[card]
            points = peg(pile, count, seat)
            if count < limit:
                for nxt in after[seat]:
                    best = _greedy(hands[nxt], pile, count, sign, peg, nxt, risks)
                    if best >= 0:
                        break
                else:
                    points += GO_POINTS  # the go, or the last card
        if points:
            s = side[seat]
            gains[s] += points
            if endgame and scores[s] + gains[s] >= targets[s]:
                return _value(deal, gains, s)
        if best >= 0:
            seat = nxt
            card = best
            continue
        key = 0
        count = 0
        for nxt in after[seat]:
            if hands[nxt]:
                seat = nxt
                break
        else:
            break
        if not deal.always_continues and not deal.counting.play_continues(tuple(map(len, hands))):
            break
        # A new count: every card fits.
        if pile is None:
            best_value = -1e9
            for held in hands[seat]:
                code = code_of[held]  # the card's own code on an empty count
                score = quick.get(code)
                if score is None:
                    score = _quick_score(code, sign)
                if score > best_value:
                    best_value = score
                    best = held
        else:
            pile = []
            best = _greedy(hands[seat], pile, 0, sign, peg, seat, risks)
        card = best
    for s, points in show:
        gains[s] += points
        if scores[s] + gains[s] >= targets[s]:
            return _value(deal, gains, s)
    if leaf is None and len(gains) == 2:
        mine = side[deal.me]
        return sign * (gains[mine] - gains[1 - mine] / 1)  # `_value` with nobody out, written out
    return _value(deal, gains, -1)


def _value(deal: _Deal, gains: list[int], winner: int) -> float:
    if deal.leaf is not None:
        scores = tuple(score + gain for score, gain in zip(deal.scores, gains, strict=True))
        return deal.leaf(scores, winner if winner >= 0 else None)
    mine = deal.side[deal.me]
    if len(gains) == 2:
        value = deal.goal * (gains[mine] - gains[1 - mine] / 1)  # as the general line below
    else:
        others = [g for s, g in enumerate(gains) if s != mine]
        value = deal.goal * (gains[mine] - sum(others) / len(others))
    if winner >= 0:  # ``winner`` reached the target: it wins, or under lowball it loses
        won = (winner == mine) == (deal.goal > 0)
        value += WIN_VALUE if won else -WIN_VALUE
    return value


@dataclass(frozen=True, slots=True)
class Unseen:
    """What a seat knows of the cards it cannot see, for drawing them (build it with `unseen_of`)."""

    seat: int
    """The seat that draws (it draws nothing for itself)."""
    pool: tuple[int, ...]
    """The cards it has not seen, as card indices: not in its hand, its kept or laid-away cards, not
    the starter, not laid by anyone this deal."""
    held: tuple[int, ...]
    """How many cards each seat holds now (the drawing seat's own are known)."""
    floors: tuple[int, ...]
    """By seat: the lowest count value its held cards can have (`go_floors`)."""
    order: tuple[int, ...]
    """The other seats holding cards, tightest floor first: the order they draw in."""
    crib_unknown: int
    """How many cards of the crib the seat has not seen (the crib less its own laid-away cards)."""


def unseen_of(view: SeatView) -> Unseen:
    """The unseen cards of ``view``'s seat and what is known of who holds them (see `Unseen`)."""
    known = {c.index for c in (*view.hand, *view.kept, *view.discarded)}
    if view.starter is not None:
        known.add(view.starter.index)
    known.update(c.index for cards in view.laid for c in cards)
    floors = tuple(go_floors(view))
    others = [s for s in range(view.rules.seats) if s != view.seat and view.held[s]]
    others.sort(key=lambda s: -floors[s])  # stable: seat order among equal floors
    return Unseen(
        seat=view.seat,
        pool=tuple(c for c in range(STANDARD_CARDS) if c not in known),
        held=tuple(view.held),
        floors=floors,
        order=tuple(others),
        crib_unknown=max(0, view.rules.crib_size - len(view.discarded)),
    )


def draw_unseen(unseen: Unseen, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """One uniform draw, consistent with everything public, of every other seat's held cards and the
    crib's unseen cards: ``(hands, crib)``, ``hands`` by seat (the drawing seat's entry empty), card
    indices in draw order.

    Consistent means: only unseen cards (`Unseen.pool`), exactly as many for each seat as it holds, and
    none that a go rules out (a seat that said go on 25 holds nothing worth 6 or less); among the draws
    that satisfy this, each is equally likely. It does not shuffle the pool: each card is an index
    sampled from the pool, drawn again when already taken, so a draw costs about one
    `random.Random.random` per card drawn. A seat whose go cannot be satisfied by the cards left (a
    view no draw explains) draws from all of them. To weigh draws by how likely their owners were to
    keep them, see `keep_weight`.
    """
    pool = unseen.pool
    rand = rng.random
    held_by = unseen.held
    floors = unseen.floors
    hands: list[list[int]] = [[] for _ in held_by]
    taken: set[int] = set()
    for seat in unseen.order:
        held = held_by[seat]
        source: Sequence[int] = pool
        floor = floors[seat]
        if floor > 1:
            fits = [c for c in pool if c not in taken and VALUE[c] >= floor]
            if len(fits) >= held:
                source = fits
        held = min(held, len(source) - len(taken) if source is pool else held)
        _sample(source, held, taken, rand, hands[seat])
    crib: list[int] = []
    _sample(pool, min(unseen.crib_unknown, len(pool) - len(taken)), taken, rand, crib)
    return hands, crib


def _sample(
    source: Sequence[int], count: int, taken: set[int], rand: Callable[[], float], out: list[int]
) -> None:
    """Append ``count`` cards of ``source`` not in ``taken`` to ``out`` (and ``taken``), uniformly
    without replacement; ``source`` must hold that many cards not taken."""
    size = len(source)
    while count:
        card = source[int(rand() * size)]
        if card not in taken:
            taken.add(card)
            out.append(card)
            count -= 1


def keep_weight(hands: Sequence[Sequence[int]], laid: Sequence[Sequence[int]], seat: int) -> float:
    """How much likelier than chance a draw's kept hands are, in the six-card game (`KEEP_WEIGHT`): the
    product over the seats other than ``seat`` whose kept hand of four is complete (``laid`` this deal
    plus the drawn ``hands``). 1 when no hand is complete. Use it to weigh a draw's outcome."""
    weight = 1.0
    for other, hand in enumerate(hands):
        if other != seat and hand and len(laid[other]) + len(hand) == 4:
            weight *= _keep_weight([*laid[other], *hand])
    return weight


def play_twins(candidates: Sequence[int], standard: bool) -> list[int]:
    """For each of ``candidates`` (card indices), the position of the candidate whose play-outs
    `search_play` shares with it: under the standard play (``standard``) the first candidate of its
    rank, otherwise itself. The search plays out the candidates that are their own twin, in order, and
    calls its ``leaf`` once for each of them per draw it plays out."""
    if not standard:
        return list(range(len(candidates)))
    first: dict[int, int] = {}
    return [first.setdefault(RANK[c], i) for i, c in enumerate(candidates)]


def search_play(
    view: SeatView,
    candidates: list[int],
    rng: random.Random,
    rulebook: Rulebook | None = None,
    *,
    leaf: Leaf | None = None,
    rollouts: int = ROLLOUTS,
    min_samples: int = MIN_SAMPLES,
    shuffled: bool = False,
    keep_model: KeepLikelihood | None = None,
    distinct: bool = False,
) -> list[PlayEstimate]:
    """The average play-out value of each candidate card (indices, legal now), best first (ties: the
    lower card), under ``rulebook`` (the view's by default). ``view`` must be in the play with a
    starter turned.

    The search makes ``max(min_samples, rollouts // len(candidates))`` draws of the unseen cards and,
    for each, lays every candidate and plays the rest of the deal out with the quick rule (every seat,
    the searching one included). The same draws serve every candidate, so their comparison is not
    blurred by luck. A play-out's result is a function of the draw alone: the same draws give the same
    estimates, however they were drawn.

    Without ``leaf`` (the hard level): a play-out's value is the points difference, and the show and a
    win (`WIN_VALUE`) count only near the end (`ENDGAME_REACH`). When hands of four are kept from six,
    each draw is one of `PROPOSALS` draws, chosen in proportion to `keep_weight`. Draws come from
    `draw_unseen`, or with ``shuffled`` from a shuffle of the unseen cards per draw, as the hard level
    drew before (the same ``rng`` then gives the very draws, so the very estimates, it gave then).

    With ``leaf`` (a `Leaf`): draws by `draw_unseen`, each seat's whole kept hand and the crib's unseen
    cards drawn too; every play-out plays to the end of the deal's play and counts the show in the
    profile's counting order (the hands, then the crib), stopping at once when a side reaches its
    target (in the play or the show); its value is ``leaf(side_scores, winner)``, which must be a pure
    function (play-outs that cannot differ share one call). A card's value is the average leaf value
    over the draws, each draw weighted by `keep_weight` when hands of four are kept from six, so the
    search maximises the expected leaf value.

    Under the standard play a play-out depends on ranks alone (the show is counted apart): candidates
    of one rank share one play-out, and a draw whose hands have an earlier draw's ranks in the same
    order (and the same show) reuses that draw's values. Either way the values are the very same.

    ``distinct``: the play-outs are shared among the candidates that play out differently (under the
    standard play, one per rank) rather than among all of them, so candidates of one rank buy more
    draws.

    ``keep_model`` (with ``leaf``, two seats holding hands of four kept from six, the crib's two
    unseen cards the other seat's): each draw is weighted by ``keep_model(kept, thrown)`` instead of
    `keep_weight`, ``kept`` the other seat's four (laid and drawn), ``thrown`` the crib's drawn cards.
    """
    book = rulebook if rulebook is not None else view.rulebook
    counting = counting_for(book)
    rules = view.rules
    seats = rules.seats
    side = tuple(rules.side_of(s) for s in range(seats))
    scores = view.scores
    if leaf is None:
        targets = (rules.target,) * rules.sides
        endgame = min(rules.target - score for score in scores) <= ENDGAME_REACH
    else:
        targets = tuple(rules.target_of(s) for s in range(rules.sides))
        endgame = True
    deal = _Deal(
        seats=seats,
        side=side,
        me=view.seat,
        sides=rules.sides,
        scores=scores,
        endgame=endgame,
        goal=goal(view),
        counting=counting,
        always_continues=counting.always_continues,
        peg=counting.pegger(view.dealer),
        targets=targets,
        leaf=leaf,
        risks=risks_for(book),
        after=_seats_after(seats),
    )
    assert view.starter is not None
    starter = view.starter.index
    laid = [[c.index for c in cards] for cards in view.laid]
    pile = [c.index for _, c in view.pile]
    count = view.count
    dealer = view.dealer
    order = counting.counting_order(dealer)
    own_crib = [c.index for c in view.discarded]
    mine = [c.index for c in view.hand]
    weighted = rules.hand_size == 4 and rules.discards == 2 and PROPOSALS > 1
    standard = counting.standard_play
    key = _pile_key([RANK[c] for c in pile])
    totals = [0.0] * len(candidates)
    weight_sum = 0.0
    # Under the standard play only ranks count in a play-out (the show is counted apart, once per
    # draw): candidates of one rank get one play-out, and a draw whose hands have the ranks, in the
    # same order, of an earlier draw's (and the same show) gets that draw's values.
    twin = play_twins(candidates, standard)
    searched = [i for i, j in enumerate(twin) if i == j]
    draws = max(min_samples, rollouts // len(searched if distinct else candidates))
    me = view.seat
    own_kept = [*laid[me], *mine]
    own_show = None
    if endgame and own_kept:
        own_show = (side[me], counting.show_points(own_kept, starter, seat=me, dealer=dealer))
    others = [s for s in range(seats) if s != view.seat]
    known: dict[object, list[float]] = {}
    single = others[0] if len(others) == 1 else -1  # the one other seat, if there is one
    for hands, crib_rest, weight in _draws(
        view, rng, draws, weighted, endgame, leaf is None, shuffled, mine, keep_model
    ):
        show: list[tuple[int, int]] = []
        if endgame:
            for seat in order:
                if seat == me:  # the seat's own hand is the same in every draw
                    if own_show is not None:
                        show.append(own_show)
                    continue
                kept = [*laid[seat], *hands[seat]]
                if kept:
                    points = counting.show_points(kept, starter, seat=seat, dealer=dealer)
                    show.append((side[seat], points))
            crib = [*own_crib, *crib_rest]
            if crib:
                points = counting.show_points(crib, starter, crib=True, seat=dealer, dealer=dealer)
                show.append((side[dealer], points))
        weight_sum += weight
        values = None
        if standard:
            if single >= 0:
                draw_key: object = (tuple([RANK[c] for c in hands[single]]), *show)
            else:
                draw_key = (tuple(tuple([RANK[c] for c in hands[s]]) for s in others), *show)
            values = known.get(draw_key)
        if values is None:
            values = []
            for i in searched:
                copies = [hand[:] for hand in hands]
                if standard:
                    values.append(_play_out(deal, copies, None, key, count, candidates[i], show))
                else:
                    values.append(_play_out(deal, copies, pile[:], 0, count, candidates[i], show))
            if standard:
                known[draw_key] = values
        if leaf is None:
            for i, value in zip(searched, values, strict=True):
                totals[i] += value
        else:
            for i, value in zip(searched, values, strict=True):
                totals[i] += weight * value
    for i, j in enumerate(twin):
        totals[i] = totals[j]
    if leaf is None:
        estimates = [
            PlayEstimate(c, total / draws, draws) for c, total in zip(candidates, totals, strict=True)
        ]
    else:
        estimates = [
            PlayEstimate(c, total / weight_sum, draws) for c, total in zip(candidates, totals, strict=True)
        ]
    estimates.sort(key=lambda e: (-e.value, e.card))
    return estimates


def _draws(
    view: SeatView,
    rng: random.Random,
    draws: int,
    weighted: bool,
    crib_too: bool,
    propose: bool,
    shuffled: bool,
    mine: list[int],
    keep_model: KeepLikelihood | None = None,
) -> Iterator[tuple[list[list[int]], list[int], float]]:
    """``draws`` draws of the other seats' held cards, as ``(hands, crib cards, weight)``: ``hands``
    by seat (the seat's own entry ``mine``), the crib's unseen cards when ``crib_too`` (else some or
    none), and the draw's weight. When ``weighted`` and ``propose``, each draw is the one chosen among
    `PROPOSALS` in proportion to `keep_weight` (weight 1); when ``weighted`` alone, each draw is
    weighted by `keep_weight` (by ``keep_model`` when given, see `search_play`). ``shuffled``: by
    `_draw_hands` (the draws of the hard level before)."""
    laid = [[c.index for c in cards] for cards in view.laid]
    me = view.seat
    if shuffled:
        known = {c.index for c in (*view.hand, *view.kept, *view.discarded)}
        if view.starter is not None:
            known.add(view.starter.index)
        known.update(c for cards in laid for c in cards)
        pool = [c for c in range(STANDARD_CARDS) if c not in known]
        crib_unknown = view.rules.crib_size - len(view.discarded)
        floors = go_floors(view)
        for _ in range(draws):
            if weighted:
                # Keep one of a few draws, in proportion to how likely each is to have been kept.
                proposals = [(_draw_hands(view, pool, floors, rng, mine), pool[:]) for _ in range(PROPOSALS)]
                weights = [keep_weight(hands, laid, me) for hands, _ in proposals]
                hands, rest = rng.choices(proposals, weights)[0]
            else:
                hands, rest = _draw_hands(view, pool, floors, rng, mine), pool
            yield hands, rest[:crib_unknown], 1.0
        return
    unseen = unseen_of(view)
    if not crib_too:
        unseen = replace(unseen, crib_unknown=0)
    if len(unseen.order) == 1:
        yield from _draws_one(unseen, laid, rng, draws, weighted, propose, mine, keep_model)
        return
    for _ in range(draws):
        if weighted and propose:
            proposals2 = [draw_unseen(unseen, rng) for _ in range(PROPOSALS)]
            weights = [keep_weight(hands, laid, me) for hands, _ in proposals2]
            hands, crib = rng.choices(proposals2, weights)[0]
            weight = 1.0
        else:
            hands, crib = draw_unseen(unseen, rng)
            weight = keep_weight(hands, laid, me) if weighted else 1.0
        hands[me] = mine
        yield hands, crib, weight


def _draws_one(
    unseen: Unseen,
    laid: list[list[int]],
    rng: random.Random,
    draws: int,
    weighted: bool,
    propose: bool,
    mine: list[int],
    keep_model: KeepLikelihood | None = None,
) -> Iterator[tuple[list[list[int]], list[int], float]]:
    """`_draws` by `draw_unseen`'s sampling when one other seat holds cards (the two-handed game's
    case), written out: the draw's cards, then (when proposing) the
    choice among `PROPOSALS`, then the crib's unseen cards of the chosen draw."""
    (other,) = unseen.order
    pool = unseen.pool
    size = len(pool)
    held = unseen.held[other]
    rand = rng.random
    laid_other = laid[other]
    complete = weighted and held > 0 and len(laid_other) + held == 4
    crib_unknown = min(unseen.crib_unknown, size - held)
    if keep_model is not None and complete and not propose and crib_unknown == 2:
        yield from _draws_inferred(unseen, laid_other, rng, draws, mine, keep_model)
        return
    proposals = PROPOSALS if weighted and propose and complete else 1
    seats = len(unseen.held)
    me = unseen.seat
    laid_cards = laid_ranks = laid_suits = 0
    for card in laid_other:
        laid_cards |= 1 << card
        laid_ranks += _RANK_COUNT[card]
        laid_suits |= 1 << SUIT[card]
    by_ranks = _KEEP_BY_RANKS
    # Per unseen card: the card, its bit, its share of a ranks code and its suit's bit.
    info = [(card, 1 << card, _RANK_COUNT[card], 1 << SUIT[card]) for card in pool]
    # A go limits what the other seat holds (`go_floors`): its cards come from those that fit.
    floor = unseen.floors[other]
    fits = [entry for entry in info if VALUE[entry[0]] >= floor] if floor > 1 else info
    if len(fits) < held:  # no draw explains the view: draw from everything, as `draw_unseen` does
        fits = info
    fit_count = len(fits)
    for _ in range(draws):
        weight = 1.0
        total = 0.0
        picks: list[tuple[float, list[int]]] = []
        for _ in range(proposals):
            hand: list[int] = []
            cards = laid_cards
            if complete:
                ranks = laid_ranks
                suits = laid_suits
                while len(hand) < held:
                    card, bit, rank_code, suit_bit = fits[int(rand() * fit_count)]
                    if not cards & bit:
                        cards |= bit
                        hand.append(card)
                        ranks += rank_code
                        suits |= suit_bit
                # `_keep_weight`, looked up by the ranks and whether the four share a suit.
                weights = by_ranks.get(ranks)
                if weights is None:
                    weights = _keep_weights_of(ranks, [*laid_other, *hand])
                weight = weights[not suits & (suits - 1)]
            else:
                while len(hand) < held:
                    card, bit, _, _ = fits[int(rand() * fit_count)]
                    if not cards & bit:
                        cards |= bit
                        hand.append(card)
            total += weight
            picks.append((total, hand))
        if proposals > 1:
            # As `random.Random.choices` with weights: the first whose running total passes the point.
            point = rand() * total
            chosen = picks[-1][1]
            for running, hand in picks:
                if point < running:
                    chosen = hand
                    break
            weight = 1.0
        else:
            chosen = picks[0][1]
        # Held as a view holds them (in card order), so that draws of the same ranks play out alike.
        chosen.sort()
        crib: list[int] = []
        while len(crib) < crib_unknown:
            card = pool[int(rand() * size)]
            if card not in crib and card not in chosen:
                crib.append(card)
        hands: list[list[int]] = [[] for _ in range(seats)]
        hands[me] = mine
        hands[other] = chosen
        yield hands, crib, weight


def _draws_inferred(
    unseen: Unseen,
    laid_other: list[int],
    rng: random.Random,
    draws: int,
    mine: list[int],
    model: KeepLikelihood,
) -> Iterator[tuple[list[list[int]], list[int], float]]:
    """`_draws_one` weighed by ``model`` (see `search_play`), drawn so that the weights vary little:
    the other seat's six cards less those it laid are drawn uniformly from the pool, then split into
    its held cards and the crib's two in proportion to ``model`` among the splits the view allows (the
    held cards fit its go); the draw's weight is the sum over those splits (how likely such six cards
    were to give what was seen). So the draw follows the model's posterior exactly, and with nothing
    laid yet every draw weighs 1."""
    (other,) = unseen.order
    pool = unseen.pool
    size = len(pool)
    held = unseen.held[other]
    unknown = held + 2
    rand = rng.random
    floor = unseen.floors[other]
    seats = len(unseen.held)
    me = unseen.seat
    splits = [
        (list(keep), [i for i in range(unknown) if i not in keep])
        for keep in combinations(range(unknown), held)
    ]
    laid_code = 0
    for card in laid_other:
        laid_code += _RANK_COUNT[card]
    memo = _SPLITS
    by_rank = RANK
    rank_code = _RANK_COUNT
    for _ in range(draws):
        # A six that no split explains (weight 0) is drawn again, a few times at most: the same
        # estimate as counting it for nothing, with more draws that count.
        for _ in range(REDRAWS):
            six: list[int] = []
            while len(six) < unknown:
                card = pool[int(rand() * size)]
                if card not in six:
                    six.append(card)
            # Cards of one rank weigh alike: in rank order, a split's weight depends on ranks alone.
            six.sort(key=by_rank.__getitem__)
            code = 0
            for card in six:
                code += rank_code[card]
            key = (model, laid_code, floor, code)
            known = memo.get(key)
            if known is None:
                known = _split_weights(model, laid_other, six, splits, floor)
                if len(memo) >= _SPLITS_LIMIT:
                    memo.clear()
                memo[key] = known
            weights, total = known
            if total > 0.0:
                break
        if total <= 0.0:
            # Nothing explains the view (the model gives it no chance): the draw barely counts.
            weights = tuple(float(i + 1) for i in range(len(splits)))
            total = weights[-1]
            weight = 1e-9
        else:
            weight = total
        point = rand() * total
        choice = len(splits) - 1
        for index, running in enumerate(weights):
            if point < running:
                choice = index
                break
        keep, thrown = splits[choice]
        chosen = sorted(six[i] for i in keep)
        hands: list[list[int]] = [[] for _ in range(seats)]
        hands[me] = mine
        hands[other] = chosen
        yield hands, [six[i] for i in thrown], weight


_SPLITS: dict[tuple[object, int, int, int], tuple[tuple[float, ...], float]] = {}
"""`_split_weights` by (model, laid cards' ranks code, go floor, drawn six's ranks code), filled on
first use."""

_SPLITS_LIMIT = 1 << 17


def _split_weights(
    model: KeepLikelihood,
    laid_other: list[int],
    six: list[int],
    splits: list[tuple[list[int], list[int]]],
    floor: int,
) -> tuple[tuple[float, ...], float]:
    """The running sums of ``model``'s weight of each split of ``six`` (positions into it) that the
    go's ``floor`` allows, and their total."""
    weights: list[float] = []
    total = 0.0
    for keep, thrown in splits:
        kept = [six[i] for i in keep]
        if floor <= 1 or all(VALUE[c] >= floor for c in kept):
            total += model([*laid_other, *kept], [six[i] for i in thrown])
        weights.append(total)
    return tuple(weights), total
