"""The hard level's play search: sampled hands for the other seats, then a quick play-out of each card.

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
card answers with (`_COUNT_RISK`, `PAIR_RISK`, `RUN_RISK`) and the keep weights are measured on the
standard count and stay as they are under a house rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import STANDARD_CARDS
from ..deals import shuffle
from ..rulebook import Rulebook
from ..scoring import PLAY_LIMIT
from ..turns import GO_POINTS, next_able, next_holding
from ..views import SeatView
from .counting import Counting, PegScorer, counting_for
from .level import goal
from .tally import RANK, SUIT, VALUE, rank_points

__all__ = [
    "ENDGAME_REACH",
    "WIN_VALUE",
    "Leaf",
    "PlayEstimate",
    "Unseen",
    "draw_unseen",
    "go_floors",
    "keep_weight",
    "search_play",
    "unseen_of",
]

Leaf = Callable[[tuple[int, ...], int | None], float]
"""``leaf(side_scores, winner) -> value``: what the end of a play-out is worth to the searching seat's
side (higher is better for it). ``side_scores`` is every side's score, by side, after this deal's play
and show (or at the moment a side reached its target); ``winner`` is the side that reached its target
first (under lowball, the side that loses), or ``None`` when no side did."""

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


def _keep_weight(kept: list[int]) -> float:
    points = rank_points(tuple(sorted(RANK[c] for c in kept)))
    suit = SUIT[kept[0]]
    if all(SUIT[c] == suit for c in kept):
        points += 4
    return KEEP_WEIGHT[min(points, len(KEEP_WEIGHT) - 1)]


def go_floors(view: SeatView) -> list[int]:
    """The lowest count value each seat's held cards can have: a seat that said go on a count of
    ``c`` this deal held nothing of value ``31 - c`` or less, and it holds a subset of those cards."""
    floors = [1] * view.rules.seats
    for event in view.events:
        if event.kind == "says-go" and event.deal == view.deal and event.seat is not None:
            assert event.count is not None
            floors[event.seat] = max(floors[event.seat], PLAY_LIMIT - event.count + 1)
    return floors


def _draw_hands(view: SeatView, pool: list[int], floors: list[int], rng: random.Random) -> list[list[int]]:
    """One uniform draw of every other seat's held cards from ``pool``; the cards left over (the
    unseen crib cards among them) are ``pool`` minus those, in random order, left in ``pool``.

    Each seat draws only cards its go's allow (`go_floors`); seats with the tightest limit draw first.
    """
    shuffle(rng, pool)  # rng.shuffle's very order, faster
    hands: list[list[int]] = [[] for _ in range(view.rules.seats)]
    hands[view.seat] = [c.index for c in view.hand]
    others = [s for s in range(view.rules.seats) if s != view.seat and view.held[s]]
    if len(others) > 1:
        others.sort(key=lambda s: -floors[s])
    taken: set[int] = set()
    for seat in others:
        held = view.held[seat]
        floor = floors[seat]
        drawn = [c for c in pool if c not in taken and VALUE[c] >= floor][:held]
        if len(drawn) < held:  # the view cannot be explained this way; draw from everything
            drawn = [c for c in pool if c not in taken][:held]
        hands[seat] = drawn
        taken.update(drawn)
    if taken:
        pool[:] = [c for c in pool if c not in taken] + list(taken)
    return hands


def _value_share(value: int) -> float:
    """The share of the pack worth ``value`` in the count (0 for no card)."""
    return 16 / 52 if value == 10 else 4 / 52 if 1 <= value <= 9 else 0.0


_COUNT_RISK = tuple(2 * (_value_share(15 - after) + _value_share(31 - after)) for after in range(32))
"""The points a random card answers a count with by making 15 or 31, weighed by its chance."""

PAIR_RISK = 0.5
"""About what a card laid on an open count gives away to a pair (a rough chance of a pair, times 2)."""

RUN_RISK = 0.6
"""About what a card one or two ranks from the last one gives away to a run."""


def _score(card: int, pile: list[int], count: int, prev: int, peg: PegScorer, seat: int) -> float:
    """The quick rule's value of ``seat`` laying ``card`` on ``pile`` (card indices; ``prev`` is the
    rank of its last card, 0 for none): points now, minus the points a random card would answer with (a
    fifteen or 31, a pair, a run), plus a little for shedding high cards first."""
    value = VALUE[card]
    after = count + value
    rank = RANK[card]
    points = peg([*pile, card], after, seat)
    risk = _COUNT_RISK[after]
    if after + value <= PLAY_LIMIT:
        risk += PAIR_RISK
    if prev and 0 < abs(rank - prev) <= 2:
        risk += RUN_RISK
    return points - risk + value * 0.01


def _greedy(hand: list[int], pile: list[int], count: int, sign: float, peg: PegScorer, seat: int) -> int:
    """The quick rule every seat follows in a play-out: the best `_score` (the worst under lowball)."""
    best = -1
    best_value = -1e9
    room = PLAY_LIMIT - count
    prev = RANK[pile[-1]] if pile else 0
    for card in hand:
        if VALUE[card] > room:
            continue
        score = sign * _score(card, pile, count, prev, peg, seat)
        if score > best_value:
            best_value = score
            best = card
    return best


def _play_out(
    deal: _Deal,
    hands: list[list[int]],
    pile: list[int],
    count: int,
    card: int,
    show: list[tuple[int, int]],
) -> float:
    """Lay ``card`` for the searching seat, play the rest greedily, then (near the end) count ``show``,
    the (side, points) of each hand and the crib in counting order; return the outcome's value."""
    side = deal.side
    gains = [0] * deal.sides
    seat = deal.me
    peg = deal.peg
    while True:
        hands[seat].remove(card)
        pile.append(card)
        count += VALUE[card]
        points = peg(pile, count, seat)
        nxt = next_able(hands, seat, count) if count < PLAY_LIMIT else None
        if nxt is None and count < PLAY_LIMIT:
            points += GO_POINTS  # the go, or the last card
        if points:
            s = side[seat]
            gains[s] += points
            if deal.endgame and deal.scores[s] + gains[s] >= deal.targets[s]:
                return _value(deal, gains, s)
        if nxt is None:
            pile = []
            count = 0
            nxt = next_holding(hands, seat)
            if nxt is None:
                break
            if not deal.always_continues and not deal.counting.play_continues(tuple(map(len, hands))):
                break
        seat = nxt
        card = _greedy(hands[seat], pile, count, deal.goal, peg, seat)
    for s, points in show:
        gains[s] += points
        if deal.scores[s] + gains[s] >= deal.targets[s]:
            return _value(deal, gains, s)
    return _value(deal, gains, -1)


def _value(deal: _Deal, gains: list[int], winner: int) -> float:
    if deal.leaf is not None:
        scores = tuple(score + gain for score, gain in zip(deal.scores, gains, strict=True))
        return deal.leaf(scores, winner if winner >= 0 else None)
    mine = deal.side[deal.me]
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
    sampled from what is left (a partial Fisher–Yates), so a draw costs about one `random.Random.random`
    per card drawn. A seat whose go cannot be satisfied by the cards left (a view no draw explains)
    draws from all of them. To weigh draws by how likely their owners were to keep them, see
    `keep_weight`.
    """
    pool = list(unseen.pool)
    top = len(pool)
    rand = rng.random
    hands: list[list[int]] = [[] for _ in unseen.held]
    floors = unseen.floors
    for seat in unseen.order:
        held = unseen.held[seat]
        floor = floors[seat]
        drawn = hands[seat]
        if floor > 1:
            fits = [k for k in range(top) if VALUE[pool[k]] >= floor]
            if len(fits) >= held:
                for n in range(len(fits), len(fits) - held, -1):
                    k = int(rand() * n)
                    drawn.append(pool[fits[k]])
                    fits[k] = fits[n - 1]
                chosen = set(drawn)
                pool = [c for c in pool[:top] if c not in chosen]
                top = len(pool)
                continue
        for _ in range(held):
            k = int(rand() * top)
            top -= 1
            drawn.append(pool[k])
            pool[k] = pool[top]
    crib: list[int] = []
    for _ in range(min(unseen.crib_unknown, top)):
        k = int(rand() * top)
        top -= 1
        crib.append(pool[k])
        pool[k] = pool[top]
    return hands, crib


def keep_weight(hands: Sequence[Sequence[int]], laid: Sequence[Sequence[int]], seat: int) -> float:
    """How much likelier than chance a draw's kept hands are, in the six-card game (`KEEP_WEIGHT`): the
    product over the seats other than ``seat`` whose kept hand of four is complete (``laid`` this deal
    plus the drawn ``hands``). 1 when no hand is complete. Use it to weigh a draw's outcome."""
    weight = 1.0
    for other, hand in enumerate(hands):
        if other != seat and hand and len(laid[other]) + len(hand) == 4:
            weight *= _keep_weight([*laid[other], *hand])
    return weight


def search_play(
    view: SeatView,
    candidates: list[int],
    rng: random.Random,
    rulebook: Rulebook | None = None,
    *,
    leaf: Leaf | None = None,
    rollouts: int = ROLLOUTS,
    min_samples: int = MIN_SAMPLES,
) -> list[PlayEstimate]:
    """The average play-out value of each candidate card (indices, legal now), best first (ties: the
    lower card), under ``rulebook`` (the view's by default). ``view`` must be in the play with a
    starter turned.

    The search draws ``max(min_samples, rollouts // len(candidates))`` deals of the unseen cards and,
    for each, lays every candidate and plays the rest of the deal out with the quick rule (every seat,
    the searching one included). The same draws serve every candidate.

    Without ``leaf`` (the hard level): draws by `_draw_hands` (a shuffle of the unseen cards, kept in
    proportion to `KEEP_WEIGHT` among `PROPOSALS` when hands of four are kept), a play-out's value is
    the points difference, and the show and a win (`WIN_VALUE`) count only near the end
    (`ENDGAME_REACH`). The same ``rng`` state gives the same draws and the same estimates as ever.

    With ``leaf`` (a `Leaf`): draws by `draw_unseen` (no shuffle), each seat's whole kept hand and the
    crib's unseen cards drawn too; every play-out plays to the end of the deal's play and counts the
    show in the profile's counting order (the hands, then the crib), stopping at once when a side
    reaches its target (in the play or the show); its value is ``leaf(side_scores, winner)``. A
    card's value is the average leaf value over the draws, each draw weighted by `keep_weight` when
    hands of four are kept from six, so the search maximises the expected leaf value.
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
    )
    assert view.starter is not None
    starter = view.starter.index
    laid = [[c.index for c in cards] for cards in view.laid]
    pile = [c.index for _, c in view.pile]
    dealer = view.dealer
    order = counting.counting_order(dealer)
    draws = max(min_samples, rollouts // len(candidates))
    weighted = rules.hand_size == 4 and rules.discards == 2 and PROPOSALS > 1
    if leaf is not None:
        return _search_leaf(view, deal, candidates, rng, laid, pile, order, draws, weighted)
    known = {starter, *(c.index for c in (*view.hand, *view.kept, *view.discarded))}
    known.update(c for cards in laid for c in cards)
    pool = [c for c in range(STANDARD_CARDS) if c not in known]
    crib_unknown = rules.crib_size - len(view.discarded)
    totals = [0.0] * len(candidates)
    floors = go_floors(view)
    for _ in range(draws):
        if weighted:
            # Keep one of a few draws, in proportion to how likely each is to have been kept.
            proposals = [(_draw_hands(view, pool, floors, rng), pool[:]) for _ in range(PROPOSALS)]
            weights = [keep_weight(hands, laid, view.seat) for hands, _ in proposals]
            hands, rest = rng.choices(proposals, weights)[0]
        else:
            hands, rest = _draw_hands(view, pool, floors, rng), pool
        show: list[tuple[int, int]] = []
        if deal.endgame:
            for seat in order:
                kept = [*laid[seat], *hands[seat]]
                if kept:
                    points = counting.show_points(kept, starter, seat=seat, dealer=dealer)
                    show.append((side[seat], points))
            crib = [*(c.index for c in view.discarded), *rest[:crib_unknown]]
            if crib:
                points = counting.show_points(crib, starter, crib=True, seat=dealer, dealer=dealer)
                show.append((side[dealer], points))
        for i, card in enumerate(candidates):
            copies = [hand[:] for hand in hands]
            totals[i] += _play_out(deal, copies, pile[:], view.count, card, show)
    estimates = [
        PlayEstimate(card, total / draws, draws) for card, total in zip(candidates, totals, strict=True)
    ]
    estimates.sort(key=lambda e: (-e.value, e.card))
    return estimates


def _search_leaf(
    view: SeatView,
    deal: _Deal,
    candidates: list[int],
    rng: random.Random,
    laid: list[list[int]],
    pile: list[int],
    order: tuple[int, ...],
    draws: int,
    weighted: bool,
) -> list[PlayEstimate]:
    """`search_play` with a leaf: fast draws, whole kept hands and crib, play-outs to the show's end."""
    assert view.starter is not None
    starter = view.starter.index
    counting = deal.counting
    dealer = view.dealer
    side = deal.side
    unseen = unseen_of(view)
    mine = [c.index for c in view.hand]
    own_crib = [c.index for c in view.discarded]
    totals = [0.0] * len(candidates)
    weight_sum = 0.0
    for _ in range(draws):
        hands, crib_rest = draw_unseen(unseen, rng)
        hands[view.seat] = mine[:]
        weight = keep_weight(hands, laid, view.seat) if weighted else 1.0
        show: list[tuple[int, int]] = []
        for seat in order:
            kept = [*laid[seat], *hands[seat]]
            if kept:
                points = counting.show_points(kept, starter, seat=seat, dealer=dealer)
                show.append((side[seat], points))
        crib = [*own_crib, *crib_rest]
        if crib:
            points = counting.show_points(crib, starter, crib=True, seat=dealer, dealer=dealer)
            show.append((side[dealer], points))
        weight_sum += weight
        for i, card in enumerate(candidates):
            copies = [hand[:] for hand in hands]
            totals[i] += weight * _play_out(deal, copies, pile[:], view.count, card, show)
    estimates = [
        PlayEstimate(card, total / weight_sum, draws) for card, total in zip(candidates, totals, strict=True)
    ]
    estimates.sort(key=lambda e: (-e.value, e.card))
    return estimates
