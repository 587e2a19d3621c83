"""Wild cards in the show: which cards are wild, what each may stand for, and the best substitution.

A plugin declares its wild cards with the ``cribcore_wild_cards`` hook: standard cards (one-eyed jacks,
J♠ and J♥) or a pack's extra cards (jokers), each with the standard cards it may stand for. The rules
authority (`cribcore.rulebook.Rulebook`) then counts every hand and crib holding a wild card, or turned
up with one, as the substitution that scores the most, so authors never enumerate substitutions:

- each wild card of the count (the hand's or crib's cards and the starter) stands for one card it may
  stand for; no two cards of the count are then the same card, so a wild card stands for a card that is
  not among the count's other cards (it may stand for itself);
- the count is the profile's show count (its other plugins included) of the cards stood for;
- on a tie, the substitution whose cards stood for come first in card order (wild cards taken in card
  order, the starter last) is chosen, so every face shows the same one.

The items then carry the wild cards themselves, each paired with what it stood for (`ScoreItem.wild`:
"J♠ as 4♦"). `substituted_items` does the same for a plugin's own substitutions (a joker's in the play).

Wild cards are wild in the show only: in the play and for his heels a card is what it is (a plugin may
rewrite those items itself).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import product

from .cards import Card, Rank, Suit
from .scoring import ScoreItem, flush_points, rank_points

__all__ = ["WildCards", "best_standard_total", "best_standing", "substituted_items", "wild_cards_from"]

ShowCount = Callable[[Sequence[Card], Card], int]
"""``count(hand, starter)``: the show total of standard cards ``hand`` (sorted) with ``starter``."""


@dataclass(frozen=True, slots=True)
class WildCards:
    """The wild cards of a profile: each wild card and the standard cards it may stand for, in card
    order. Empty (false) when no plugin declares any."""

    stands_for: Mapping[Card, tuple[Card, ...]]
    by_rank: Mapping[Card, tuple[tuple[int, tuple[tuple[int, int], ...]], ...]] = field(
        init=False, repr=False, compare=False
    )
    """For each wild card, the cards it may stand for by rank, as ``(index, suit number)``, the suit
    numbered as in `Card.index` (for fast counts)."""

    def __post_init__(self) -> None:
        by_rank = {}
        for card, options in self.stands_for.items():
            ranks: dict[int, list[tuple[int, int]]] = {}
            for option in options:
                ranks.setdefault(int(option.rank), []).append((option.index, option.index & 3))
            by_rank[card] = tuple((rank, tuple(found)) for rank, found in sorted(ranks.items()))
        object.__setattr__(self, "by_rank", by_rank)

    def __bool__(self) -> bool:
        return bool(self.stands_for)


NO_WILD_CARDS = WildCards({})


def wild_cards_from(answers: Iterable[Mapping[Card, Sequence[Card]] | None]) -> WildCards:
    """The profile's wild cards from the plugins' ``cribcore_wild_cards`` answers: a card two plugins
    make wild may stand for any card either allows. Raises `ValueError` with a one-line reason when a
    key is not a card or a card it may stand for is not one of the standard 52 (or there is none)."""
    merged: dict[Card, set[Card]] = {}
    for answer in answers:
        for card, allowed in (answer or {}).items():
            if not isinstance(card, Card):
                raise ValueError(f"a wild card must be a Card, not {card!r}")
            options = tuple(allowed)
            if not options:
                raise ValueError(f"wild card {card} may stand for no card")
            for option in options:
                if not isinstance(option, Card) or not option.standard:
                    raise ValueError(f"wild card {card} may stand only for standard cards, not {option!r}")
            merged.setdefault(card, set()).update(options)
    return WildCards({card: tuple(sorted(options)) for card, options in sorted(merged.items())})


def best_standing(
    hand: Sequence[Card],
    starter: Card,
    wild: WildCards,
    count: ShowCount,
    *,
    standard_count: bool = False,
) -> tuple[tuple[tuple[Card, Card], ...], int]:
    """The best substitution for the wild cards among ``hand`` (sorted) and ``starter``, and its total.

    Returns ``((wild card, card it stands for), ...)`` in card order with the starter last, and the
    count of the cards stood for. ``count`` scores standard cards. With ``standard_count`` (``count`` is
    the standard show: fifteens, pairs and runs by ranks alone, plus flush and nobs), the ranks are
    chosen first from the rank table and only the best of them are counted card by card, which is
    hundreds of times faster with two wild cards and gives the same answer.
    """
    wilds = [card for card in hand if card in wild.stands_for]
    if starter in wild.stands_for:
        wilds.append(starter)
    fixed = {card for card in (*hand, starter) if card not in wild.stands_for}
    options = [[option for option in wild.stands_for[card] if option not in fixed] for card in wilds]
    if not wilds:
        return (), count(hand, starter)
    if standard_count:
        best = _best_by_ranks(hand, starter, wilds, options, fixed, count)
    else:
        best = _best_of(hand, starter, wilds, product(*options), count)
    if best is None:
        # No substitution leaves the cards distinct (a plugin allowing only cards already in the count):
        # the wild cards count as what they are.
        return (), count(hand, starter)
    chosen, total = best
    return tuple(zip(wilds, chosen, strict=True)), total


def _substitute(
    hand: Sequence[Card], starter: Card, wilds: Sequence[Card], chosen: Sequence[Card]
) -> tuple[list[Card], Card]:
    stand = dict(zip(wilds, chosen, strict=True))
    return sorted(stand.get(card, card) for card in hand), stand.get(starter, starter)


def _best_of(
    hand: Sequence[Card],
    starter: Card,
    wilds: Sequence[Card],
    choices: Iterable[tuple[Card, ...]],
    count: ShowCount,
    best: tuple[tuple[Card, ...], int] | None = None,
) -> tuple[tuple[Card, ...], int] | None:
    """The highest count among ``choices`` (each a card per wild card), the first on a tie unless an
    earlier one in card order is already ``best``."""
    for chosen in choices:
        if len(set(chosen)) < len(chosen):
            continue
        total = count(*_substitute(hand, starter, wilds, chosen))
        if best is None or total > best[1] or (total == best[1] and chosen < best[0]):
            best = (chosen, total)
    return best


def _best_by_ranks(
    hand: Sequence[Card],
    starter: Card,
    wilds: Sequence[Card],
    options: Sequence[Sequence[Card]],
    fixed: set[Card],
    count: ShowCount,
) -> tuple[tuple[Card, ...], int] | None:
    """`_best_of` for the standard count: every choice of ranks is scored from the rank table (fifteens,
    pairs and runs depend on ranks alone); only rank choices that could still win once the flush and
    nobs are added (at most the hand's size plus one, plus one) are counted card by card."""
    by_rank: list[dict[int, list[Card]]] = []
    for allowed in options:
        ranks: dict[int, list[Card]] = {}
        for option in allowed:
            ranks.setdefault(int(option.rank), []).append(option)
        by_rank.append(ranks)
    fixed_ranks = [int(card.rank) for card in fixed]
    scored = [
        (-rank_points([*fixed_ranks, *chosen]), chosen)
        for chosen in product(*(sorted(group) for group in by_rank))
    ]
    scored.sort()
    hand_fixed = {card.suit for card in hand if card in fixed}
    bonus = (len(hand) + 1 if len(hand_fixed) <= 1 else 0) + 1
    best: tuple[tuple[Card, ...], int] | None = None
    for minus, chosen_ranks in scored:
        if best is not None and -minus + bonus < best[1]:
            break
        choices = product(*(group[rank] for group, rank in zip(by_rank, chosen_ranks, strict=True)))
        best = _best_of(hand, starter, wilds, choices, count, best)
    return best


_SUIT_NUMBER = {suit: number for number, suit in enumerate(Suit)}
"""Each suit's number, as in `Card.index` (``index & 3``)."""
_POWER = tuple(5 ** (rank - 1) for rank in range(14))
"""A rank's share of a rank multiset's key (base 5: never more than four cards of one rank)."""
_RANKED: dict[int, int] = {}
"""`rank_points` by rank-multiset key, as met."""


def best_standard_total(
    hand: Sequence[Card],
    starter: Card,
    wild: WildCards,
    *,
    crib: bool,
    hand_flush_needs_starter: bool = False,
    crib_flush_needs_starter: bool = True,
) -> int | None:
    """The total of `best_standing` under the standard count with these flush rules (see
    `cribcore.scoring.show_items`), without choosing the cards: for each choice of ranks, fifteens,
    pairs and runs come from the rank table, and the flush and nobs from the best choice of suits among
    the cards free; choices of ranks that cannot beat the best so far are never given suits. ``None``
    when no choice leaves the cards distinct (`best_standing` then counts the cards as they are)."""
    by_rank = wild.by_rank
    wild_hand = [card for card in hand if card in by_rank]
    fixed_hand = [card for card in hand if card not in by_rank]
    starter_wild = starter in by_rank
    wilds = [*wild_hand, starter] if starter_wild else wild_hand
    fixed = fixed_hand if starter_wild else [*fixed_hand, starter]
    taken = {card.index for card in fixed}
    power = _POWER
    key = 0
    for card in fixed:
        key += power[card.rank]
    free: list[dict[int, list[int]]] = []
    for card in wilds:
        ranks: dict[int, list[int]] = {}
        for rank, options in by_rank[card]:
            suits = [suit for index, suit in options if index not in taken]
            if suits:
                ranks[rank] = suits
        free.append(ranks)
    ranked = _RANKED
    fixed_ranks = [int(card.rank) for card in fixed]
    scored: list[tuple[int, tuple[int, ...]]] = []
    if len(free) == 1:
        for rank in free[0]:
            at = key + power[rank]
            points = ranked.get(at)
            if points is None:
                points = ranked[at] = rank_points([*fixed_ranks, rank])
            scored.append((points, (rank,)))
    else:
        # Two wild cards of the hand with the same choices are interchangeable: each pair of ranks once.
        same = len(free) == 2 and not starter_wild and free[0] == free[1]
        for ranks_chosen in product(*(tuple(group) for group in free)):
            if same and ranks_chosen[0] > ranks_chosen[1]:
                continue
            at = key
            for rank in ranks_chosen:
                at += power[rank]
            points = ranked.get(at)
            if points is None:
                points = ranked[at] = rank_points([*fixed_ranks, *ranks_chosen])
            scored.append((points, ranks_chosen))
    scored.sort(reverse=True)
    fixed_suits = {_SUIT_NUMBER[card.suit] for card in fixed_hand}
    needs_starter = crib_flush_needs_starter if crib else hand_flush_needs_starter
    size = len(hand)
    flush_most = flush_points(size, with_starter=True, needs_starter=False) if len(fixed_suits) <= 1 else 0
    most_bonus = flush_most + 1
    fixed_jacks = {_SUIT_NUMBER[card.suit] for card in fixed_hand if card.rank == Rank.JACK}
    cut_suit = -1 if starter_wild else _SUIT_NUMBER[starter.suit]
    best = -1
    for points, ranks_chosen in scored:
        if points + most_bonus <= best:
            break
        bonus = _best_suits(
            ranks_chosen, free, fixed_suits, fixed_jacks, cut_suit, size, needs_starter, most_bonus
        )
        if bonus >= 0 and points + bonus > best:
            best = points + bonus
    return None if best < 0 else best


def _best_suits(
    ranks: Sequence[int],
    free: Sequence[Mapping[int, list[int]]],
    fixed_suits: set[int],
    fixed_jacks: set[int],
    cut_suit: int,
    size: int,
    needs_starter: bool,
    most: int,
) -> int:
    """The most flush and nobs points (at most ``most``) for wild cards of ``ranks`` (the starter's
    last when it is wild, ``cut_suit`` -1) over their free suits with no card twice; -1 when no choice
    of cards is free. Suits are numbers 0..3."""
    best = -1
    hand_wilds = len(ranks) - (cut_suit < 0)
    flush_suit = next(iter(fixed_suits)) if len(fixed_suits) == 1 else -1
    may_flush = len(fixed_suits) <= 1
    wild_jacks = [i for i in range(hand_wilds) if ranks[i] == Rank.JACK]
    for suits in product(*(group[rank] for group, rank in zip(free, ranks, strict=True))):
        if len(suits) == 2 and ranks[0] == ranks[1] and suits[0] == suits[1]:
            continue
        if len(suits) > 2 and len(set(zip(ranks, suits, strict=True))) < len(suits):
            continue
        cut = suits[-1] if cut_suit < 0 else cut_suit
        bonus = 0
        if may_flush:
            suit = flush_suit if flush_suit >= 0 else suits[0]
            if all(suits[i] == suit for i in range(hand_wilds)):
                bonus = flush_points(size, with_starter=suit == cut, needs_starter=needs_starter)
        if cut in fixed_jacks or any(suits[i] == cut for i in wild_jacks):
            bonus += 1
        if bonus > best:
            best = bonus
            if best >= most:
                break
    return best


def substituted_items(
    items: Iterable[ScoreItem], standing: Mapping[Card, Card] | Sequence[tuple[Card, Card]]
) -> tuple[ScoreItem, ...]:
    """``items`` scored on the cards stood for, put back on the wild cards: each card stood for is
    replaced by its wild card, and the item's `ScoreItem.wild` names what the wild card stood for.
    ``standing`` pairs each wild card with the card it stood for; a wild card standing for itself is
    shown as itself."""
    pairs = standing.items() if isinstance(standing, Mapping) else standing
    back = {stood: card for card, stood in pairs if stood != card}
    if not back:
        return tuple(items)
    result = []
    for item in items:
        if not any(card in back for card in item.cards):
            result.append(item)
            continue
        cards = tuple(back.get(card, card) for card in item.cards)
        wild = tuple((back[card], card) for card in item.cards if card in back)
        result.append(replace(item, cards=cards, wild=wild))
    return tuple(result)
