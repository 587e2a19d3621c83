"""Chance: where the cards come from. A game owns one `DealSource`; nothing else in a game is random.

`SeededDeals` shuffles from a seed. Each deal is drawn from its own generator derived from the seed and the
deal's number, so a deal never depends on the players' decisions (or the computer's level), and a saved
game resumed from its record gets the same cards to come. `RecordedDeals` replays the cards of a record.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import FULL_DECK, Card
from .events import unguarded
from .rules import RuleSet

__all__ = ["CutResult", "DealCards", "DealLog", "DealSource", "RecordedDeals", "SeededDeals", "shuffle"]


@dataclass(frozen=True, slots=True)
class DealCards:
    """The cards of one deal: each seat's hand as dealt, cards dealt straight to the crib, the starter."""

    hands: tuple[tuple[Card, ...], ...]
    crib_cards: tuple[Card, ...]
    starter: Card


@dataclass(frozen=True, slots=True)
class CutResult:
    """The cut for deal: each round's ``(seat, card)`` cuts, and the seat that deals first."""

    rounds: tuple[tuple[tuple[int, Card], ...], ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class DealLog:
    """What a game record keeps of one deal (hidden cards included): see `cribcore.records`."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    crib_cards: tuple[Card, ...]
    starter: Card
    discards: tuple[tuple[Card, ...] | None, ...]
    plays: tuple[Card, ...]
    claims: tuple[str, ...] = ()
    """Under muggins, every declared count, call and pass in order (their text forms)."""
    discard_order: tuple[int, ...] = ()
    """The seats in the order they laid their discards away."""
    phase_actions: tuple[str, ...] = ()
    """The texts of the plugin-phase actions taken before this deal, in order (who acted follows from
    the game)."""


_DealCardsSlots = unguarded(DealCards)


class DealSource(Protocol):
    """Supplies the cut for the first deal and the cards of each deal."""

    def cut(self, rules: RuleSet) -> CutResult:
        """The cut that chooses the first dealer."""
        ...

    def deal(self, index: int, dealer: int, rules: RuleSet) -> DealCards | None:
        """The cards of deal ``index`` (0-based), or ``None`` when there are no more."""
        ...


_PLAIN_RANDBELOW = random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
"""Whether `random.Random.shuffle` draws with ``getrandbits`` as `shuffle` repeats (CPython's)."""


_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}
"""The steps of a shuffle by list length: ``(i, n, k)`` for ``i`` from the end down to 1, where the
position ``j`` swapped with ``i`` is drawn below ``n = i + 1`` from ``k`` random bits (``n``'s bit
length). Kept per length: working them out each time was a fifth of a shuffle."""


def _steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of a shuffle of ``length`` items (see `_STEPS`), kept for lengths up to 256."""
    steps = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, length)))
    if length <= 256:
        _STEPS[length] = steps
    return steps


def shuffle(rng: random.Random, cards: list[Any]) -> None:
    """``rng.shuffle(cards)``, the same draws and the same result, without a method call per card (a
    deal's largest cost after seeding its generator, and the hard level's sampled hands'). Falls back
    to ``rng.shuffle`` where `random` draws another way.

    Drawing the words in batches (``getrandbits(32 * m)``, split) was measured slower: each word is a
    new int, where a ``getrandbits(k)`` of a few bits is a cached small one."""
    if not _PLAIN_RANDBELOW:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    steps = _STEPS.get(len(cards)) or _steps(len(cards))
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _draw_below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` above 0: the same draw, without `random.Random.randrange`'s checks
    (once a deal)."""
    if n <= 0 or not _PLAIN_RANDBELOW:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


_STANDARD_PARTS: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]] = {}
"""Packs met so far, by identity (every game of a profile shares its pack), with their standard cards."""


def _standard_part(pack: tuple[Card, ...]) -> tuple[Card, ...]:
    """The standard cards of ``pack``, in its order (found once per pack object)."""
    known = _STANDARD_PARTS.get(id(pack))
    if known is not None and known[0] is pack:
        return known[1]
    part = tuple(card for card in pack if card.standard)
    if len(_STANDARD_PARTS) >= 64:
        _STANDARD_PARTS.clear()
    _STANDARD_PARTS[id(pack)] = (pack, part)
    return part


class SeededDeals:
    """Deals shuffled from a seed: the same seed gives the same cut and deals, whatever is played.

    ``pack`` is the cards shuffled (a plugin's pack, see ``cribcore_pack``; the standard 52 by default).
    The cut for deal is made with the pack's standard cards only, so an extra card (a joker) is never cut.
    """

    def __init__(self, seed: int, pack: Sequence[Card] = FULL_DECK) -> None:
        self.seed = seed
        self.pack = tuple(pack)
        self._cut_pack = _standard_part(self.pack)

    def _rng(self, label: str) -> random.Random:
        # String seeds are hashed with SHA-512 by `random`, so this is stable across runs and platforms.
        return random.Random(f"cribcore/{self.seed}/{label}")

    def cut(self, rules: RuleSet) -> CutResult:
        rng = self._rng("cut")
        contenders = list(range(rules.seats))
        rounds = []
        while True:
            pack = list(self._cut_pack)
            shuffle(rng, pack)
            cuts = tuple((seat, pack[i]) for i, seat in enumerate(contenders))
            rounds.append(cuts)
            low = min(card.rank for _, card in cuts)
            contenders = [seat for seat, card in cuts if card.rank == low]
            if len(contenders) == 1:
                return CutResult(tuple(rounds), contenders[0])

    def deal(self, index: int, dealer: int, rules: RuleSet) -> DealCards:
        rng = self._rng(f"deal/{index}")
        pack = list(self.pack)
        shuffle(rng, pack)
        seats, dealt = rules.seats, rules.cards_dealt
        hands: list[Sequence[Card]] = [()] * seats
        # One card at a time, starting with the dealer's left: the k-th seat from there gets every
        # seats-th card from position k.
        for k in range(seats):
            hands[(dealer + 1 + k) % seats] = pack[k : seats * dealt : seats]
        position = seats * dealt
        crib_cards = tuple(pack[position : position + rules.crib_from_pack])
        start = position + rules.crib_from_pack
        starter = pack[start + _draw_below(rng, len(pack) - start)]
        # Built by plain assignment (see `cribcore.events.unguarded`): once a deal, every game.
        cards = object.__new__(_DealCardsSlots)
        cards.hands = tuple(map(tuple, hands))
        cards.crib_cards = crib_cards
        cards.starter = starter
        cards.__class__ = DealCards
        built: DealCards = cards  # typed by assignment: `typing.cast` is a Python call
        return built


class RecordedDeals:
    """The deals of a record, then (when given) a fallback source for the deals after them.

    ``seeded``, the record's own seed as a source, gives back the cut for deal that chose the first
    dealer (a record keeps only who dealt first), when that seed made the record's first deal."""

    def __init__(
        self,
        dealers: Sequence[int],
        deals: Sequence[DealCards],
        fallback: DealSource | None = None,
        seeded: DealSource | None = None,
    ) -> None:
        self.dealers = tuple(dealers)
        self.deals = tuple(deals)
        self.fallback = fallback
        self.seeded = seeded

    def cut(self, rules: RuleSet) -> CutResult:
        if self.dealers:
            if self.seeded is not None and self.deals:
                cut = self.seeded.cut(rules)
                if cut.dealer == self.dealers[0] and self.seeded.deal(0, cut.dealer, rules) == self.deals[0]:
                    return cut
            return CutResult((), self.dealers[0])
        if self.fallback is not None:
            return self.fallback.cut(rules)
        return CutResult((), 0)

    def deal(self, index: int, dealer: int, rules: RuleSet) -> DealCards | None:
        if index < len(self.deals):
            return self.deals[index]
        if self.fallback is not None:
            return self.fallback.deal(index, dealer, rules)
        return None


class FirstDealerGiven:
    """``source``'s deals with the first dealer given instead of cut for (a match's next game, which
    the loser of the last one deals): no cut is made. A record of such a game keeps its first dealer,
    so it replays as any record does."""

    def __init__(self, source: DealSource, dealer: int) -> None:
        self.source = source
        self.dealer = dealer

    def cut(self, rules: RuleSet) -> CutResult:
        if not 0 <= self.dealer < rules.seats:
            raise ValueError(f"the first dealer {self.dealer} is not a seat")
        return CutResult((), self.dealer)

    def deal(self, index: int, dealer: int, rules: RuleSet) -> DealCards | None:
        return self.source.deal(index, dealer, rules)
