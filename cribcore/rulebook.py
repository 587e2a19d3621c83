"""The one rules authority: a `Rulebook` answers every rules question of a game's profile.

The engine, the computer levels, hints, the analyzer, the statistics and the ``score``, ``peg`` and
``practice`` commands all ask a game's `Rulebook` (from `rulebook_for`) and nothing else, so a plugin that
changes a rule changes it everywhere at once. A `Rulebook` calls the profile's plugins through the same
cached plugin manager as every game (`cribcore.pluginmanager.plugin_manager`) and adds two kinds of speed
that never change an answer:

- when a hook has only the standard plugin's implementation, the standard function is called directly
  (and the show total comes from the tables of `cribcore.scoring.show_total`, about half a microsecond);
  the flush rules of the built-in ``hand-flush`` plugin are parameters of those tables too;
- otherwise show answers are kept in a bounded cache keyed by the sorted cards, the starter and whether
  it is the crib (and the seat and dealer only when some plugin's show hook takes them);
- and when every plugin that changes the show declares that it sees suits only as the standard count
  does (``cribcore_show_suits_as_standard``: through flushes and nobs), show *totals* are kept by class
  too: the hand's ranks, the starter's rank and whether the hand is a flush of the starter's suit, a
  flush of another, holds the jack of the starter's suit or none of these (`show_class`, the classes
  `cribcore.stats` counts too), so that all the hands of a class are counted by the hooks once.

Wild cards (``cribcore_wild_cards``, `cribcore.wild`) are counted here too: a count holding one is the
best substitution's, found once and cached by the same key; a count holding none is counted as if no card
were wild, on the fast tables whenever the show is otherwise the standard one.

Rulebooks hold no game state: `rulebook_for` shares one per profile *fingerprint* (a stable hash of the
plugins, their resolved options, the rules and the plugins' distribution versions).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Final

import pluggy

from . import pluginmanager
from .cards import FULL_DECK, Card
from .phases import PhaseState, PhaseStep
from .profiles import Profile
from .rules import RuleSet
from .scoring import ScoreItem, show_total
from .scoring import play_items as standard_play_items
from .scoring import show_items as standard_show_items
from .wild import (
    NO_WILD_CARDS,
    WildCards,
    best_standard_total,
    best_standing,
    substituted_items,
    wild_cards_from,
)

__all__ = ["KINDS", "Rulebook", "recording", "rulebook_for", "show_class", "standard_rulebook"]

KINDS: Final = ("play", "hand", "crib")
"""The kinds of count a profile may have players declare (`Rulebook.declared`)."""

_STANDARD_MODULE = "cribcore_plugins.standard"
_SHOW_CACHE = 1 << 16
"""Show answers kept per non-standard rulebook: every 4-card hand of one starter rank and more."""
_PLAY_CACHE = 1 << 15
_SEAT_ARGS = frozenset({"seat", "dealer"})
_CLASS_CACHE = 1 << 19
"""Show totals kept by class: every class of four cards and a starter, as hand and crib, for a few seats."""
_JACKS = 40
"""`Card.index` of the jack of the first suit (indices are rank-major: ``(rank - 1) * 4 + suit``)."""
_JACK_RANK = _JACKS >> 2


_by_index = attrgetter("index")
"""The sort key of cards in `Card` order (a C call)."""


def _flatten(results: Iterable[Sequence[ScoreItem] | None]) -> tuple[ScoreItem, ...]:
    return tuple(item for result in results if result for item in result)


def _is_standard(impl: pluggy.HookImpl) -> bool:
    return getattr(impl.plugin, "__name__", None) == _STANDARD_MODULE


def profile_fingerprint(profile: Profile) -> str:
    """A stable hash of what decides a profile's answers: its plugins in order, their resolved options,
    its rules and the installed version of each plugin's distribution (a different version may answer
    differently, so caches keyed by the fingerprint are never shared across it)."""
    payload = {
        "plugins": list(profile.plugins),
        "options": profile.options,
        "rules": profile.rules.model_dump(mode="json"),
        "versions": pluginmanager.distribution_versions(profile.plugins),
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(eq=False)
class Rulebook:
    """Every rules answer of one profile. Build it with `rulebook_for` (shared, cached), not directly.

    Its value is its profile and fingerprint (its only fields); the rest is derived from them and cached.
    Methods take plain values and return immutable ones. Seats are numbered as in a game: ``seat`` is
    the seat that scores (for the crib, the dealer) and ``dealer`` the seat that dealt.
    """

    profile: Profile
    _fingerprint: str = ""

    def __post_init__(self) -> None:
        profile = self.profile
        self._manager = pluginmanager.plugin_manager(profile.plugins, profile.options)
        self._hook = self._manager.hook
        self._rules = profile.rules
        if not self._fingerprint:
            self._fingerprint = profile_fingerprint(profile)
        hook = self._hook

        def impls(caller: pluggy.HookCaller) -> list[pluggy.HookImpl]:
            return caller.get_hookimpls()

        def only_standard(caller: pluggy.HookCaller) -> bool:
            found = impls(caller)
            return len(found) == 1 and _is_standard(found[0])

        self._standard_play = only_standard(hook.cribcore_play_items)
        self._standard_starter = only_standard(hook.cribcore_starter_items)
        self._standard_winner = only_standard(hook.cribcore_winner)
        self._standard_order = only_standard(hook.cribcore_counting_order)
        self._standard_continues = only_standard(hook.cribcore_play_continues)
        self._heels: dict[int, tuple[Card, tuple[ScoreItem, ...]]] = {}
        """The standard heels by the starter's `Card.index` (an int hashes without calling Python code),
        with the card they were worked out for."""
        # The show's fast path: the standard plugin alone, or with one plugin that declares that it
        # changes only which flushes score (``cribcore_flush_rules``, as hand-flush does): the flush
        # parameters of the fast table.
        self._flush: tuple[bool, bool] | None = None
        show = impls(hook.cribcore_show_items)
        others = [impl for impl in show if not _is_standard(impl)]
        if len(others) < len(show):
            if not others:
                self._flush = (False, True)
            elif len(others) == 1 and [impl.plugin_name for impl in impls(hook.cribcore_flush_rules)] == [
                others[0].plugin_name
            ]:
                declared = hook.cribcore_flush_rules(rules=self._rules)
                if declared is not None:
                    self._flush = (bool(declared[0]), bool(declared[1]))
        self._standard_show = only_standard(hook.cribcore_show_items)
        # With wild cards the show is never a standard table's, but a count without a wild card is
        # counted exactly as it would be without them, on these fast paths.
        self._plain_flush, self._plain_standard = self._flush, self._standard_show
        self._wild = self._wild_cards(hook)
        self._wild_indices = frozenset(card.index for card in self._wild.stands_for)
        if self._wild:
            self._flush, self._standard_show = None, False
        self._show_by_seat = any(_SEAT_ARGS & set(impl.argnames) for impl in show)
        self._play_by_seat = any(_SEAT_ARGS & set(impl.argnames) for impl in impls(hook.cribcore_play_items))
        self._checks_discards = bool(impls(hook.cribcore_check_discard))
        self._has_phases = bool(impls(hook.cribcore_phase_before_deal))
        self._has_game_start = bool(impls(hook.cribcore_game_start))
        rules = self._rules
        reached = tuple(rules.target_of(0) if side == 0 else 0 for side in range(rules.sides))
        self._target_wins = self.winner(reached, 0) == 0
        self._play_goes_on = self.play_continues(tuple(1 for _ in range(rules.seats)))
        self._declared = {kind: bool(hook.cribcore_declared(rules=rules, kind=kind)) for kind in KINDS}
        skunk = hook.cribcore_skunk_lines(rules=rules)
        self._skunk = (int(skunk[0]), int(skunk[1])) if skunk is not None else (0, 0)
        self._show_cached: Callable[..., tuple[ScoreItem, ...]] = functools.lru_cache(maxsize=_SHOW_CACHE)(
            self._show_hooked
        )
        self._play_cached: Callable[..., int] = functools.lru_cache(maxsize=_PLAY_CACHE)(self._play_hooked)
        self._wild_cached: Callable[..., tuple[tuple[tuple[Card, Card], ...], int]] = functools.lru_cache(
            maxsize=_SHOW_CACHE
        )(self._wild_best)
        self._wild_total_cached: Callable[..., int] = functools.lru_cache(maxsize=_SHOW_CACHE)(
            self._wild_total
        )
        self._orders: dict[int, tuple[int, ...]] = {}
        self._standard_order = only_standard(hook.cribcore_counting_order)
        answer = hook.cribcore_pack(rules=rules)
        self._pack: tuple[Card, ...] = tuple(answer) if answer is not None else FULL_DECK
        self._extra_cards = any(not card.standard for card in self._pack)
        self._by_class = (
            self._flush is None
            and not self._wild
            and not self._extra_cards
            and self._suits_as_standard(hook, others)
        )
        self._class_totals: dict[tuple[object, ...], int] = {}
        self.show_counter: Callable[..., int] = self._counter()
        """``show_counter(cards, starter, *, crib)``: `show_total` without seats, as one plain function
        for hot loops (the fast table itself under the standard show)."""

    @property
    def shows_by_class(self) -> bool:
        """Whether show totals are kept by `show_class`: every plugin that changes the show declares
        ``cribcore_show_suits_as_standard``, no card is wild and the pack is the standard 52."""
        return self._by_class

    def _suits_as_standard(self, hook: Any, others: list[pluggy.HookImpl]) -> bool:
        """Whether every plugin's show besides standard's declares that it sees suits only through
        flushes and nobs (``cribcore_show_suits_as_standard``), and none declares otherwise."""
        caller = hook.cribcore_show_suits_as_standard
        declaring = caller.get_hookimpls()
        names = {impl.plugin_name for impl in declaring}
        if not others or any(impl.plugin_name not in names for impl in others):
            return False
        # Every implementation must answer True (pluggy leaves out the ones that answer None).
        answers = caller(rules=self._rules)
        return len(answers) == len(declaring) and all(answer is True for answer in answers)

    def _keep_nothing(self) -> None:
        """Ask the hooks every time from now on: no answer of a hook is kept (see `recording`)."""
        self._by_class = False
        self._show_cached = self._show_hooked
        self._play_cached = self._play_hooked
        self._heels = _Unkept()
        self._orders = _Unkept()

    def _wild_cards(self, hook: Any) -> WildCards:
        impls = hook.cribcore_wild_cards.get_hookimpls()
        if not impls:
            return NO_WILD_CARDS
        try:
            return wild_cards_from(hook.cribcore_wild_cards(rules=self._rules))
        except ValueError as exc:
            names = ", ".join(impl.plugin_name for impl in impls)
            raise pluginmanager.PluginError(names, "cribcore_wild_cards", str(exc)) from None

    def _counter(self) -> Callable[..., int]:
        flush = self._flush
        if flush == (False, True):
            return show_total
        if flush is not None:
            return functools.partial(
                show_total, hand_flush_needs_starter=flush[0], crib_flush_needs_starter=flush[1]
            )
        return self.show_total

    def __repr__(self) -> str:
        return f"Rulebook({self.profile_name!r}, {self._fingerprint})"

    # ----------------------------------------------------------------- what the profile is

    @property
    def manager(self) -> pluggy.PluginManager:
        """The plugin manager the answers come from (shared with every game of the profile)."""
        return self._manager

    @property
    def rules(self) -> RuleSet:
        """The profile's rules (`cribcore.rules.RuleSet`)."""
        return self._rules

    @property
    def profile_name(self) -> str:
        """The profile's name."""
        return self.profile.name

    @property
    def fingerprint(self) -> str:
        """The profile's fingerprint (see `profile_fingerprint`): equal fingerprints, equal answers."""
        return self._fingerprint

    @property
    def target(self) -> int:
        """The profile's target; a side with a target of its own plays to `target_of` instead."""
        return self._rules.target

    def target_of(self, side: int) -> int:
        """The points that end the game for ``side`` (see `cribcore.rules.RuleSet.target_of`)."""
        return self._rules.target_of(side)

    @property
    def target_wins(self) -> bool:
        """Whether the first side to reach the target wins (``False`` under lowball, where it loses)."""
        return self._target_wins

    @property
    def play_goes_on(self) -> bool:
        """Whether the play goes on to a new count after a count closes (``False`` in five-card)."""
        return self._play_goes_on

    @property
    def is_standard_scoring(self) -> bool:
        """Whether show, play and starter answers are exactly the standard ones (the standard flush
        rules included), so that callers may use standard tables for them."""
        return self._flush == (False, True) and self._standard_play and self._standard_starter

    @property
    def is_standard_play(self) -> bool:
        """Whether play answers are exactly the standard ones (`cribcore.scoring.play_items`), so that
        callers may score the play with a standard fast count."""
        return self._standard_play

    @property
    def is_standard_show(self) -> bool:
        """Whether show items are exactly the standard ones with the standard flush rules
        (`cribcore.scoring.show_items` with its defaults): the standard plugin alone answers them."""
        return self._standard_show

    @property
    def is_standard_winner(self) -> bool:
        """Whether the game is won exactly when a side reaches its target (the standard rule), so that
        callers may compare scores with `target_of` instead of asking `winner`."""
        return self._standard_winner

    @property
    def play_always_continues(self) -> bool:
        """Whether the play always goes on to a new count while cards are held (the standard rule), so
        that callers need not ask `play_continues` each time a count closes."""
        return self._standard_continues

    @property
    def flush_rules(self) -> tuple[bool, bool] | None:
        """``(hand_flush_needs_starter, crib_flush_needs_starter)`` when the show is the standard count
        with these flush rules (see `cribcore.scoring.show_items`); ``None`` when plugins change more."""
        return self._flush

    @property
    def show_uses_seats(self) -> bool:
        """Whether a show answer may depend on the seat and the dealer (some plugin's hook takes them)."""
        return self._show_by_seat

    @property
    def skunk_lines(self) -> tuple[int, int]:
        """The single and double skunk lines (``cribcore_skunk_lines``): a losing side below them is
        skunked; 0 means never."""
        return self._skunk

    @property
    def checks_discards(self) -> bool:
        """Whether any plugin may forbid a discard (`check_discard` always allows one otherwise)."""
        return self._checks_discards

    @property
    def pack(self) -> tuple[Card, ...]:
        """The cards in play (``cribcore_pack``): the standard 52, or a plugin's pack with extra cards
        such as jokers. Every deal is shuffled from it; a record may hold only its cards."""
        return self._pack

    @property
    def has_extra_cards(self) -> bool:
        """Whether the pack holds cards beyond the standard 52 (`Card.standard` is false for them)."""
        return self._extra_cards

    # ----------------------------------------------------------------- the show

    def show_items(
        self,
        cards: Sequence[Card],
        starter: Card,
        *,
        crib: bool,
        seat: int | None = None,
        dealer: int | None = None,
    ) -> tuple[ScoreItem, ...]:
        """The show items of a hand (``crib`` false) or the crib with ``starter``, itemized, in the order
        the plugins give them. ``cards`` excludes the starter and may come in any order.

        ``seat`` is the seat whose hand it is (the dealer for the crib) and ``dealer`` the dealer. Outside
        a game, where no seat is known, seat 0 counts, and it is the dealer for a crib and not for a hand.

        With wild cards among the cards or the starter, the items are the best substitution's, on the
        wild cards, each item naming what its wild cards stood for (`ScoreItem.wild`).
        """
        ordered = tuple(sorted(cards, key=_by_index))
        if self._standard_show:
            return standard_show_items(ordered, starter, crib=crib)
        seat, dealer = self._seats(seat, dealer, crib=crib)
        if not self._show_by_seat:
            seat = dealer = 0
        if self._wild and self._has_wild(ordered, starter):
            standing, _ = self._wild_cached(ordered, starter, crib, seat, dealer)
            stand = dict(standing)
            hand = tuple(sorted((stand.get(card, card) for card in ordered), key=_by_index))
            items = self._plain_items(hand, stand.get(starter, starter), crib, seat, dealer)
            return substituted_items(items, standing)
        return self._plain_items(ordered, starter, crib, seat, dealer)

    def _plain_items(
        self, ordered: tuple[Card, ...], starter: Card, crib: bool, seat: int, dealer: int
    ) -> tuple[ScoreItem, ...]:
        """The show items as if no card were wild (``ordered`` sorted)."""
        if self._plain_standard:
            return standard_show_items(ordered, starter, crib=crib)
        return self._show_cached(ordered, starter, crib, seat, dealer)

    def _has_wild(self, cards: Sequence[Card], starter: Card) -> bool:
        # By index: a card's own hash is a Python call.
        wild = self._wild_indices
        return starter.index in wild or any(card.index in wild for card in cards)

    def _wild_best(
        self, ordered: tuple[Card, ...], starter: Card, crib: bool, seat: int, dealer: int
    ) -> tuple[tuple[tuple[Card, Card], ...], int]:
        flush = self._plain_flush
        if flush is not None:

            def count(hand: Sequence[Card], cut: Card) -> int:
                return show_total(
                    hand, cut, crib=crib, hand_flush_needs_starter=flush[0], crib_flush_needs_starter=flush[1]
                )

        else:

            def count(hand: Sequence[Card], cut: Card) -> int:
                ordered = tuple(sorted(hand, key=_by_index))
                return sum(item.points for item in self._plain_items(ordered, cut, crib, seat, dealer))

        return best_standing(ordered, starter, self._wild, count, standard_count=flush is not None)

    def _wild_total(
        self, ordered: tuple[Card, ...], starter: Card, crib: bool, seat: int, dealer: int
    ) -> int:
        flush = self._plain_flush
        if flush is not None:
            total = best_standard_total(
                ordered,
                starter,
                self._wild,
                crib=crib,
                hand_flush_needs_starter=flush[0],
                crib_flush_needs_starter=flush[1],
            )
            if total is not None:
                return total
        return self._wild_cached(ordered, starter, crib, seat, dealer)[1]

    def wild_standing(
        self,
        cards: Sequence[Card],
        starter: Card,
        *,
        crib: bool,
        seat: int | None = None,
        dealer: int | None = None,
    ) -> tuple[tuple[Card, Card], ...]:
        """What each wild card among ``cards`` and ``starter`` stands for in their best count:
        ``((wild card, card stood for), ...)``, the hand's in card order, the starter last; empty when
        none is wild. The same substitution `show_items` shows."""
        ordered = tuple(sorted(cards, key=_by_index))
        if not (self._wild and self._has_wild(ordered, starter)):
            return ()
        seat, dealer = self._seats(seat, dealer, crib=crib)
        if not self._show_by_seat:
            seat = dealer = 0
        return self._wild_cached(ordered, starter, crib, seat, dealer)[0]

    @property
    def wild_cards(self) -> WildCards:
        """The profile's wild cards (``cribcore_wild_cards``): false when there are none."""
        return self._wild

    def show_total(
        self,
        cards: Sequence[Card],
        starter: Card,
        *,
        crib: bool,
        seat: int | None = None,
        dealer: int | None = None,
    ) -> int:
        """The total of `show_items`, fast: a table look-up under the standard show (and its flush
        variants), a cached answer otherwise. ``cards`` must be distinct and not include ``starter``.
        With wild cards, a count holding none is counted as without them, one holding some is the best
        substitution's total (cached)."""
        flush = self._flush
        if flush is not None:
            return show_total(
                cards,
                starter,
                crib=crib,
                hand_flush_needs_starter=flush[0],
                crib_flush_needs_starter=flush[1],
            )
        if self._wild:
            if self._has_wild(cards, starter):
                seat, dealer = self._seats(seat, dealer, crib=crib)
                if not self._show_by_seat:
                    seat = dealer = 0
                ordered = tuple(sorted(cards, key=_by_index))
                return self._wild_total_cached(ordered, starter, crib, seat, dealer)
            flush = self._plain_flush
            if flush is not None:
                return show_total(
                    cards,
                    starter,
                    crib=crib,
                    hand_flush_needs_starter=flush[0],
                    crib_flush_needs_starter=flush[1],
                )
        if self._by_class:
            return self._class_total(cards, starter, crib, seat, dealer)
        return sum(
            item.points for item in self.show_items(cards, starter, crib=crib, seat=seat, dealer=dealer)
        )

    def show_totals(
        self,
        cards: Sequence[Card],
        starters: Sequence[Card],
        *,
        crib: bool,
        seat: int | None = None,
        dealer: int | None = None,
    ) -> list[int]:
        """`show_total` of ``cards`` with each of ``starters`` in turn (none of them among ``cards``),
        the hand's part of the work done once (for the computer players weighing a hand)."""
        if self._by_class:
            return self._class_totals_of(cards, starters, crib, seat, dealer)
        total = self.show_total
        return [total(cards, starter, crib=crib, seat=seat, dealer=dealer) for starter in starters]

    def _class_total(
        self, cards: Sequence[Card], starter: Card, crib: bool, seat: int | None, dealer: int | None
    ) -> int:
        # One starter (the play search's endgame asks for one show at a time): `_class_totals_of`
        # without its per-hand sets, the key found the same way.
        if self._show_by_seat:
            seat, dealer = self._seats(seat, dealer, crib=crib)
        else:
            seat = dealer = 0
        key = (*show_class(cards, starter), crib, seat, dealer)
        total = self._class_totals.get(key)
        if total is None:
            total = self._class_totals_of(cards, (starter,), crib, seat, dealer)[0]
        return total

    def _class_totals_of(
        self,
        cards: Sequence[Card],
        starters: Sequence[Card],
        crib: bool,
        seat: int | None,
        dealer: int | None,
    ) -> list[int]:
        """The show totals kept by the class of ``cards`` with each starter (see the module docstring),
        each counted by the hooks for the first hand of its class asked."""
        if self._show_by_seat:
            seat, dealer = self._seats(seat, dealer, crib=crib)
        else:
            seat = dealer = 0
        indices = [card.index for card in cards]
        ranks = tuple(sorted(index >> 2 for index in indices))
        suits = {index & 3 for index in indices}
        flush = next(iter(suits)) if len(suits) == 1 else None
        jacks = {index & 3 for index in indices if index >> 2 == _JACK_RANK}
        totals = self._class_totals
        found = []
        for starter in starters:
            cut = starter.index
            rank, suit = cut >> 2, cut & 3
            if flush is not None:
                kind = 0 if suit == flush else 1
            elif rank != _JACK_RANK and suit in jacks:
                kind = 2
            else:
                kind = 3
            key = (ranks, rank, kind, crib, seat, dealer)
            total = totals.get(key)
            if total is None:
                if len(totals) >= _CLASS_CACHE:
                    totals.clear()
                ordered = tuple(sorted(cards, key=_by_index))
                total = totals[key] = sum(
                    item.points for item in self._plain_items(ordered, starter, crib, seat, dealer)
                )
            found.append(total)
        return found

    def _seats(self, seat: int | None, dealer: int | None, *, crib: bool) -> tuple[int, int]:
        seat = 0 if seat is None else seat
        if dealer is None:
            dealer = seat if crib else (seat + 1) % self._rules.seats
        return seat, dealer

    def _show_hooked(
        self, cards: tuple[Card, ...], starter: Card, crib: bool, seat: int, dealer: int
    ) -> tuple[ScoreItem, ...]:
        return _flatten(
            self._hook.cribcore_show_items(
                rules=self._rules, cards=cards, starter=starter, crib=crib, seat=seat, dealer=dealer
            )
        )

    # ----------------------------------------------------------------- the play

    def play_items(self, pile: Sequence[Card], *, seat: int, dealer: int) -> tuple[ScoreItem, ...]:
        """The items scored by the last card of ``pile`` (the current count's cards in the order laid),
        for ``seat``, which laid it. Go and last-card points are the engine's, not these."""
        pile = tuple(pile)
        if self._standard_play:
            return standard_play_items(pile)
        return _flatten(
            self._hook.cribcore_play_items(rules=self._rules, pile=pile, seat=seat, dealer=dealer)
        )

    def play_points(self, pile: Sequence[Card], *, seat: int | None = None, dealer: int | None = None) -> int:
        """The total of `play_items`, cached (for computer players weighing many plays)."""
        if self._play_by_seat:
            seat, dealer = (0 if seat is None else seat), (0 if dealer is None else dealer)
            return self._play_cached(tuple(pile), seat, dealer)
        return self._play_cached(tuple(pile), 0, 0)

    def _play_hooked(self, pile: tuple[Card, ...], seat: int, dealer: int) -> int:
        return sum(item.points for item in self.play_items(pile, seat=seat, dealer=dealer))

    def play_continues(self, cards_left: Sequence[int]) -> bool:
        """Whether the play goes on to a new count, the seats holding ``cards_left`` cards each."""
        if self._standard_continues:
            return True
        return bool(self._hook.cribcore_play_continues(rules=self._rules, cards_left=tuple(cards_left)))

    # ----------------------------------------------------------------- the deal

    def starter_items(self, starter: Card, *, dealer: int) -> tuple[ScoreItem, ...]:
        """The dealer's items for turning ``starter`` up (standard: his heels, 2 for a jack)."""
        if self._standard_starter:
            # The standard answer depends on the card alone; kept per card.
            known = self._heels.get(starter.index)
            if known is None or known[0] is not starter:
                known = self._heels[starter.index] = (starter, self._starter_hooked(starter, dealer))
            return known[1]
        return self._starter_hooked(starter, dealer)

    def _starter_hooked(self, starter: Card, dealer: int) -> tuple[ScoreItem, ...]:
        return _flatten(
            self._hook.cribcore_starter_items(rules=self._rules, starter=starter, seat=dealer, dealer=dealer)
        )

    def counting_order(self, dealer: int) -> tuple[int, ...]:
        """The seats whose hands are counted in the show, in order; the crib is counted last."""
        order = self._orders.get(dealer)
        if order is None:
            order = tuple(self._hook.cribcore_counting_order(rules=self._rules, dealer=dealer))
            # A plugin's order is asked for every show, as the hook promises; only the standard one is kept.
            if self._standard_order:
                self._orders[dealer] = order
        return order

    def check_discard(
        self, hand: Sequence[Card], cards: Sequence[Card], *, dealer: int, seat: int
    ) -> str | None:
        """Why ``seat`` may not lay ``cards`` (from ``hand``, the cards dealt to it) in the crib, or
        ``None`` when it may. The cards are assumed held and of the right number."""
        if not self._checks_discards:
            return None
        reasons = self._hook.cribcore_check_discard(
            rules=self._rules, hand=tuple(hand), cards=tuple(cards), dealer=dealer, seat=seat
        )
        return next((reason for reason in reasons if reason), None)

    def game_start(self, dealer: int) -> tuple[tuple[int, ScoreItem], ...]:
        """The ``(seat, item)`` awards before the first deal, ``dealer`` dealing first."""
        if not self._has_game_start:
            return ()
        results = self._hook.cribcore_game_start(rules=self._rules, dealer=dealer)
        return tuple(award for result in results for award in result or ())

    # ----------------------------------------------------------------- counts declared (muggins)

    def declared(self, kind: str) -> bool:
        """Whether players declare their own count of ``kind`` (``play``, ``hand`` or ``crib``)."""
        return self._declared[kind]

    def muggins(self, claimed: int, missed: int) -> tuple[int, int]:
        """``(to_caller, to_counter)``: what a call of ``claimed`` points scores when ``missed`` were."""
        answer = self._hook.cribcore_muggins(rules=self._rules, claimed=claimed, missed=missed)
        if answer is None:
            return min(claimed, missed), 0
        to_caller, to_counter = answer
        return int(to_caller), int(to_counter)

    # ----------------------------------------------------------------- winning

    def winner(self, scores: Sequence[int], side: int) -> int | None:
        """The winning side when the game is over now that ``side`` scored, else ``None``."""
        if self._standard_winner:
            return side if scores[side] >= self._rules.target_of(side) else None
        answer = self._hook.cribcore_winner(rules=self._rules, scores=tuple(scores), side=side)
        return None if answer is None else int(answer)

    def game_points(self, scores: Sequence[int], winner: int) -> int:
        """Game points the ``winner`` earns with these final scores (1, or more for a skunk)."""
        points = self._hook.cribcore_game_points(rules=self._rules, scores=tuple(scores), winner=winner)
        return int(points) if points is not None else 1

    # ----------------------------------------------------------------- plugin phases

    @property
    def has_phases(self) -> bool:
        """Whether any plugin may open a phase before a deal."""
        return self._has_phases

    def phase_openings(self, deal: int, dealer: int, scores: Sequence[int]) -> tuple[tuple[str, int], ...]:
        """The plugin phases to run before ``deal`` (never the first), in order: ``(name, first seat)``."""
        if deal == 0 or not self._has_phases:
            return ()
        results = self._hook.cribcore_phase_before_deal(
            rules=self._rules, deal=deal, dealer=dealer, scores=tuple(scores)
        )
        return tuple((str(result[0]), int(result[1])) for result in results if result)

    def phase_actions(self, state: PhaseState) -> tuple[str, ...]:
        """The texts of the legal actions of ``state.to_act`` in the phase (empty if no plugin answers)."""
        answer = self._hook.cribcore_phase_actions(rules=self._rules, state=state)
        return tuple(str(text) for text in answer or ())

    def phase_apply(self, state: PhaseState, seat: int, text: str) -> PhaseStep:
        """What the legal action ``text`` of ``seat`` does in the phase; a phase nobody answers for ends."""
        answer = self._hook.cribcore_phase_apply(rules=self._rules, state=state, seat=seat, text=text)
        return answer if isinstance(answer, PhaseStep) else PhaseStep()

    def phase_choose(self, state: PhaseState, seat: int, level: str, legal: Sequence[str]) -> str:
        """A computer player's choice at ``level`` among ``legal`` (not empty): the plugin's answer when it
        is legal, else the first legal action."""
        answer = self._hook.cribcore_phase_choose(
            rules=self._rules, state=state, seat=seat, level=level, legal=tuple(legal)
        )
        return answer if answer in legal else legal[0]


def _profile_key(profile: Profile) -> tuple[object, ...]:
    return (
        pluginmanager.plugin_manager(profile.plugins, profile.options),
        profile.name,
        profile.rules,
        profile.plugins,
        json.dumps(profile.options, sort_keys=True),
    )


_CACHED = 64
_BY_PROFILE: dict[tuple[object, ...], Rulebook] = {}
_BY_FINGERPRINT: dict[tuple[str, str], Rulebook] = {}


def rulebook_for(profile: Profile) -> Rulebook:
    """The shared `Rulebook` of ``profile``: one per profile name and fingerprint, so games, players
    and commands under one profile share its caches. Cheap to call for every game.

    Raises `cribcore.pluginmanager.UnknownPlugin` when a plugin is not installed or fails to load.
    """
    last = _last[0] if _last else None
    generation = pluginmanager.generation()
    if last is not None and last[0] is profile and last[1] == generation:
        # The same (frozen) profile object again, plugins not reloaded since: every game of a run.
        return last[2]
    key = _profile_key(profile)
    book = _BY_PROFILE.get(key)
    if book is None:
        fingerprint = profile_fingerprint(profile)
        book = _BY_FINGERPRINT.get((profile.name, fingerprint))
        # Plugins reloaded in this process (`pluginmanager.clear_caches`) need a new rulebook.
        if book is None or book.manager is not key[0]:
            book = Rulebook(profile, fingerprint)
        for cache in (_BY_PROFILE, _BY_FINGERPRINT):
            if len(cache) >= _CACHED:
                cache.clear()
        _BY_FINGERPRINT[(profile.name, fingerprint)] = book
        _BY_PROFILE[key] = book
    _last[:] = [(profile, generation, book)]
    return book


_last: list[tuple[Profile, int, Rulebook]] = []
"""The last profile asked for, the plugins' generation then, and its rulebook."""


class _Unkept(dict[Any, Any]):
    """A cache that keeps nothing."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def show_class(cards: Sequence[Card], starter: Card) -> tuple[tuple[int, ...], int, int]:
    """The class of a hand (or crib) with its starter that a show seeing suits only as the standard
    count does (``cribcore_show_suits_as_standard``) cannot tell apart: the hand's ranks sorted and the
    starter's rank (0 for the ace … 12 for the king), and 0 for a flush of the starter's suit, 1 for a
    flush of another, 2 for no flush with the jack of the starter's suit held (nobs), 3 for neither.
    Standard cards only."""
    indices = [card.index for card in cards]
    cut = starter.index
    rank, suit = cut >> 2, cut & 3
    suits = {index & 3 for index in indices}
    if len(suits) == 1:
        kind = 0 if suit in suits else 1
    elif rank != _JACK_RANK and _JACKS + suit in indices:
        kind = 2
    else:
        kind = 3
    return tuple(sorted([index >> 2 for index in indices])), rank, kind


@contextmanager
def recording(profile: Profile) -> Iterator[Rulebook]:
    """While the block runs, `rulebook_for` answers ``profile`` (and any equal profile) with a new
    rulebook that keeps no answer, so that every rules question reaches the plugins' hooks, and the same
    questions make the same hook calls however often they are asked (`cribcore.testing.record_hooks`).
    Its start-up questions (the pack, the target, declared counts) are asked as it is built, at the
    start of the block. Hooks that only the standard plugin implements are still answered by the
    standard functions directly, without a hook call. Afterwards the profile gets a fresh shared
    rulebook."""
    book = Rulebook(profile)
    book._keep_nothing()
    key, named = _profile_key(profile), (profile.name, book.fingerprint)
    _BY_PROFILE[key], _BY_FINGERPRINT[named] = book, book
    _last.clear()
    try:
        yield book
    finally:
        if _BY_PROFILE.get(key) is book:
            del _BY_PROFILE[key]
        if _BY_FINGERPRINT.get(named) is book:
            del _BY_FINGERPRINT[named]
        _last.clear()


def standard_rulebook() -> Rulebook:
    """The locked standard profile's rulebook (the one `rulebook_for` shares, also after the plugins
    are reloaded in this process)."""
    return rulebook_for(_standard_profile())


@functools.cache
def _standard_profile() -> Profile:
    from .profiles import load_profile

    return load_profile()
