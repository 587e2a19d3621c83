"""The game engine: one deterministic state machine for every profile.

A `Game` holds the whole state, hidden cards included. Players act through `legal_actions` and `apply`;
they see the game only through `view`, which holds what one seat may know. All chance comes from the
game's `DealSource` (a seed, or a record's cards), so a seed reproduces a game exactly. The rules come
from the profile's `RuleSet` and the plugins' hooks; the engine itself knows only the flow of a deal:
cut, deal, discard, starter, the play, the show, the next deal, and a win the moment a side reaches it.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import random
import reprlib
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from operator import attrgetter
from typing import Any, SupportsIndex, TypeGuard

from .actions import (
    Action,
    BadDiscard,
    CardNotHeld,
    Count,
    Discard,
    GameOver,
    IllegalAction,
    Muggins,
    NotYourTurn,
    OverThirtyOne,
    Pass,
    Play,
    PluginAction,
    WrongPhase,
    check_form,
)
from .cards import STANDARD_CARDS, Card, format_cards
from .claims import Claim
from .deals import DealCards, DealLog, DealSource, FirstDealerGiven, SeededDeals
from .events import Event, lazy_items, make_event, redact, unguarded
from .phases import PhaseState
from .profiles import Profile, load_profile
from .rulebook import Rulebook, rulebook_for
from .rules import RuleSet
from .scoring import (
    GO,
    PLAY_LIMIT,
    ScoreItem,
    counted_play_items,
    may_end_run,
    show_items,
    show_total_standard,
)
from .turns import CARD_VALUE, GO_POINTS, next_able, next_holding, passed_over, scores_go
from .views import SeatView, lazy_events, make_view

__all__ = ["DealLog", "Game", "Phase", "standard_profile"]


class Phase(enum.StrEnum):
    """Where a game stands. The show and the deal happen inside `Game.apply`: no one acts in them."""

    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"
    """The show waits for a seat to declare its count, or for a muggins call (muggins only)."""
    PLUGIN = "plugin"
    """A plugin's phase before a deal (an auction, say): seats act with the plugin's actions."""
    WAITING = "waiting"
    """The deal source has no more deals (a replayed record that stops between deals)."""
    OVER = "over"


_PHASE_TEXT = {phase: phase.value for phase in Phase}
# The phases as module constants: an enum member read through its class costs a lookup every time.
_DISCARD, _PLAY, _SHOW, _PLUGIN, _WAITING, _OVER = (
    Phase.DISCARD,
    Phase.PLAY,
    Phase.SHOW,
    Phase.PLUGIN,
    Phase.WAITING,
    Phase.OVER,
)


_LogSlots = unguarded(DealLog)
_DiscardSlots = unguarded(Discard)
_new = object.__new__
_COUNT_KINDS = ("play", "hand", "crib")
_PLAYS: dict[int, Play] = {}
"""One shared `Play` per card (actions are immutable values), so listing legal plays builds nothing;
keyed by `Card.index` (an int hashes without calling Python code)."""
_DISCARDS: dict[int, Discard] = {}
"""One shared `Discard` per set of cards, for the same reason; keyed by the set's bits of `Card.index`
(equal cards have equal indexes, so equal keys mean equal discards)."""


_PLAYS_BY_ID: dict[int, Play] = {}
"""The same shared `Play`s by the identity of their card (each holds its card, so an id here is never
reused by another card): a hand's plays are then looked up without a Python call per card."""


def _play_of(card: Card) -> Play:
    action = _PLAYS.get(card.index)
    if action is None or action.card is not card:
        action = _PLAYS[card.index] = Play(card)
        if len(_PLAYS_BY_ID) >= 1 << 12:
            _PLAYS_BY_ID.clear()
        _PLAYS_BY_ID[id(card)] = action
    return action


def _plays_of(hand: Sequence[Card]) -> tuple[Play, ...]:
    """The shared `Play` of each card of ``hand``, in order."""
    # Typed loosely: once `all` (in C; a `Play` is always true) finds every card had one, it is the plays.
    plays: Any = tuple(map(_PLAYS_BY_ID.get, map(id, hand)))
    return plays if all(plays) else tuple(map(_play_of, hand))


_GO_ITEMS: dict[int, tuple[tuple[Card], tuple[ScoreItem]]] = {}
"""The go's (or last card's) cards and items for each card laid last, by `Card.index` (a `ScoreItem`
is immutable, and a frozen dataclass's ``__init__`` costs more than the look-up: a go a count)."""


def _go_of(card: Card) -> tuple[tuple[Card], tuple[ScoreItem]]:
    known = _GO_ITEMS.get(card.index)
    if known is None or known[0][0] is not card:
        known = _GO_ITEMS[card.index] = ((card,), (ScoreItem(GO, (card,), GO_POINTS),))
    return known


def _pair_of(first: Card, second: Card) -> Discard:
    """``_discard_of((first, second))`` without the loop (the standard discard is two cards)."""
    action = _DISCARDS.get((1 << first.index) | (1 << second.index))
    return action if action is not None else _discard_of((first, second))


def _discard_of(cards: tuple[Card, ...]) -> Discard:
    """The `Discard` of ``cards``, which are already in `Card` order."""
    key = 0
    for card in cards:
        key |= 1 << card.index
    action = _DISCARDS.get(key)
    if action is None:
        if len(_DISCARDS) >= 1 << 16:
            _DISCARDS.clear()
        # Built by plain assignment (see `cribcore.events.unguarded`): ``Discard(cards)`` would sort
        # cards that are already in order, and a game's first deals make hundreds of discards.
        made = _new(_DiscardSlots)
        made.cards = cards
        made.__class__ = Discard
        action = _DISCARDS[key] = made
    if len(cards) == 2:
        low, high = cards[0].index, cards[1].index
        if low < high < STANDARD_CARDS:
            _PAIR_ROWS[low][high] = action
    return action


_PAIR_ROWS: list[list[Discard | None]] = [[None] * STANDARD_CARDS for _ in range(STANDARD_CARDS)]
"""The shared two-card `Discard` of standard cards by their indexes, lower first (``None`` until made):
a six-card hand's fifteen discards are read straight from it."""


def _hand_items(cards: tuple[Card, ...], starter: Card) -> tuple[ScoreItem, ...]:
    """A hand's standard show items (for a show event's items, worked out when first read)."""
    return show_items(cards, starter)


def _crib_items(cards: tuple[Card, ...], starter: Card) -> tuple[ScoreItem, ...]:
    """The crib's standard show items (for a show event's items, worked out when first read)."""
    return show_items(cards, starter, crib=True)


@functools.lru_cache(maxsize=1)
def standard_profile() -> Profile:
    """The locked standard profile, loaded once."""
    return load_profile()


_cards_of = attrgetter("cards")
"""An action's ``cards`` read as they are: a compiled engine (docs/speed.md) would check a plain read
against the declared tuple and raise `TypeError` for a malformed action, before the engine refuses it."""

_by_index = attrgetter("index")
"""The sort key of cards in `Card` order (a C call, unlike a Python function)."""


def _shown(value: object) -> str:
    """A caller's value, short enough to quote in an error."""
    return reprlib.repr(value)


def _no_seat(seat: object) -> str:
    """The refusal of a ``seat`` that is not a seat number (see `Game._is_seat`)."""
    return f"there is no seat {_shown(seat)}"


_SeatTables = tuple[
    tuple[int, ...], tuple[tuple[int], ...], tuple[int, ...] | None, tuple[tuple[int, ...], ...]
]
_SEAT_TABLES: dict[int, tuple[Rulebook, RuleSet, _SeatTables]] = {}
"""`_seat_tables` by rulebook identity (every game of a profile shares its rulebook)."""


def _seat_tables(book: Rulebook, rules: RuleSet) -> _SeatTables:
    """Each seat's side, each seat alone as a tuple (a `Game.to_act` answer), each side's target when
    the standard winner rule holds (else ``None``), and the seats after each seat round the table (the
    seat itself last, as `cribcore.turns` goes round): the same for every game under ``book``, so
    worked out once per rulebook rather than once per game."""
    known = _SEAT_TABLES.get(id(book))
    if known is not None and known[0] is book and known[1] is rules:
        return known[2]
    tables: _SeatTables = (
        tuple(rules.side_of(seat) for seat in range(rules.seats)),
        tuple((seat,) for seat in range(rules.seats)),
        tuple(rules.target_of(side) for side in range(rules.sides)) if book.is_standard_winner else None,
        tuple(
            tuple((seat + k) % rules.seats for k in range(1, rules.seats + 1)) for seat in range(rules.seats)
        ),
    )
    if len(_SEAT_TABLES) >= 64:
        _SEAT_TABLES.clear()
    _SEAT_TABLES[id(book)] = (book, rules, tables)
    return tables


@functools.lru_cache(maxsize=16)
def _default_names(seats: int) -> tuple[str, ...]:
    """The players' names when none are given: ``Player 1``, ``Player 2``, …"""
    return tuple(f"Player {i + 1}" for i in range(seats))


class Game:
    """One game of cribbage under a profile (the locked standard profile by default).

    ``seed`` fixes every shuffle; without one (and without ``deals``) a random seed is chosen and kept
    in `seed` (and the record), so any game can be reproduced. ``deals`` replaces the shuffles with
    given cards (used to replay records). ``players`` are display names, one per seat.
    ``first_dealer`` skips the cut for deal and has that seat deal first (a match's next game).
    """

    # Slots, not an instance dict: a game keeps more fields than CPython shares a dict's keys for (30),
    # and its fields are read several times an action; a slot is read and written at a fixed place.
    __slots__ = (
        "__weakref__",
        "_after",
        "_alone",
        "_always_continues",
        "_cards",
        "_checks_discards",
        "_claim",
        "_claims",
        "_count",
        "_counts_shows",
        "_crib",
        "_deal_index",
        "_dealer",
        "_declares",
        "_declares_play",
        "_discard_choices",
        "_discard_order",
        "_discards",
        "_events",
        "_hand_plays",
        "_hands",
        "_held",
        "_kept",
        "_laid",
        "_logs",
        "_over",
        "_phase",
        "_phase_texts",
        "_phases_left",
        "_pile",
        "_pile_cards",
        "_plays",
        "_plugin_phase",
        "_profile_name",
        "_said_go",
        "_score_tuple",
        "_scores",
        "_seats",
        "_seeded_standard",
        "_seen",
        "_seen_lists",
        "_side_of",
        "_source",
        "_standard_play",
        "_standard_show",
        "_starter_shown",
        "_targets",
        "_to_discard",
        "_to_play",
        "_top_value",
        "_values",
        "_winner",
        "pack",
        "play_continues",
        "players",
        "profile",
        "rulebook",
        "rules",
        "seed",
        "target_wins",
    )

    def __init__(
        self,
        profile: Profile | None = None,
        *,
        seed: int | None = None,
        players: Sequence[str] | None = None,
        deals: DealSource | None = None,
        first_dealer: int | None = None,
    ) -> None:
        self.profile = profile if profile is not None else standard_profile()
        self.rules: RuleSet = self.profile.rules
        # Every rules question goes to the profile's rulebook, shared with the players and commands.
        self.rulebook: Rulebook = rulebook_for(self.profile)
        self.target_wins: bool = self.rulebook.target_wins
        self.play_continues: bool = self.rulebook.play_goes_on
        self._declares = {kind: self.rulebook.declared(kind) for kind in _COUNT_KINDS}
        self._declares_play = self._declares["play"]
        self.pack: tuple[Card, ...] = self.rulebook.pack
        """The cards in play (the plugins' ``cribcore_pack``: the standard 52 unless a plugin adds some)."""
        # The profile's hooks resolved once: the standard answers are plain calls, not hook dispatches.
        book = self.rulebook
        self._standard_play = book.is_standard_play
        self._standard_show = book.is_standard_show
        self._checks_discards = book.checks_discards
        self._always_continues = book.play_always_continues
        self._side_of, self._alone, self._targets, self._after = _seat_tables(book, self.rules)
        self._counts_shows = book.flush_rules is not None
        """Whether show totals come from the show tables (the standard show, or with hand-flush)."""
        if deals is None:
            seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
            deals = SeededDeals(seed, self.pack)
        if first_dealer is not None:
            deals = FirstDealerGiven(deals, first_dealer)
        self.seed: int | None = seed
        self._source: DealSource = deals
        # Shuffled from the standard pack: only standard cards are dealt, valued as `CARD_VALUE` says.
        seeded = deals.source if isinstance(deals, FirstDealerGiven) else deals
        self._seeded_standard = False
        if type(seeded) is SeededDeals:
            pack = seeded.pack
            self._seeded_standard = (
                not book.has_extra_cards if pack is self.pack else all(card.standard for card in pack)
            )
        seats = self.rules.seats
        names = tuple(players) if players is not None else _default_names(seats)
        if len(names) != seats:
            raise ValueError(f"this profile seats {seats} players, not {len(names)}")
        self.players: tuple[str, ...] = names

        self._events: list[Event] = []
        # Each seat's redacted copy of the (append-only) event log, extended as views read it, and the
        # last tuple of it handed out (shared by the views that read the same length).
        self._seen_lists: list[list[Event]] = [[] for _ in range(seats)]
        self._seen: list[tuple[Event, ...]] = [() for _ in range(seats)]
        self._scores = [0] * self.rules.sides
        self._score_tuple: tuple[int, ...] = tuple(self._scores)
        """`_scores` as a tuple, renewed whenever they change (every view and event shares it)."""
        self._seats = seats
        self._profile_name = self.profile.name
        self._winner: int | None = None
        self._phase = _WAITING
        self._over = False
        """Whether `_phase` is `_OVER` (see `is_over`)."""
        self._deal_index = -1
        self._logs: list[DealLog] = []
        # The current deal.
        self._cards: DealCards | None = None
        self._hands: list[list[Card]] = [[] for _ in range(seats)]
        # The same hands as card indexes (for `cribcore.turns`), and each card index's count value.
        self._held: list[list[int]] = [[] for _ in range(seats)]
        self._values: Sequence[int] = CARD_VALUE
        self._top_value = max(CARD_VALUE)
        """No card dealt this deal counts more: a count with this much room takes any held card."""
        self._hand_plays: list[tuple[Play, ...]] = [() for _ in range(seats)]
        """Each seat's `Play` of every held card, in hand order."""
        self._discard_choices: list[tuple[Action, ...] | None] = [None] * seats
        self._kept: list[tuple[Card, ...]] = [() for _ in range(seats)]
        self._discards: list[tuple[Card, ...] | None] = [None] * seats
        self._to_discard: tuple[int, ...] = ()
        """The seats whose discard is still to come, in seat order (renewed with `_discards`)."""
        self._discard_order: list[int] = []
        self._crib: list[Card] = []
        self._starter_shown = False
        self._plays: list[Card] = []
        self._laid: list[list[Card]] = [[] for _ in range(seats)]
        self._pile: list[tuple[int, Card]] = []
        self._pile_cards: list[Card] = []
        self._count = 0
        self._said_go: set[int] = set()
        self._to_play: int | None = None
        """The seat to lay the next card. Set only while the play waits for it (the phase is the play,
        with no claim and no plugin phase open), so a set one alone tells the play's common case."""
        self._claim: Claim | None = None
        self._claims: list[str] = []
        # Plugin phases before the coming deal: the one running, those still to run, actions taken.
        self._plugin_phase: PhaseState | None = None
        self._phases_left: list[tuple[str, int]] = []
        self._phase_texts: list[str] = []

        cut = self._source.cut(self.rules)
        for round_ in cut.rounds:
            for seat, card in round_:
                self._emit(make_event("cut", 0, seat=seat, cards=(card,)))
        self._dealer = cut.dealer
        for seat, item in self.rulebook.game_start(self._dealer):
            if self._award(make_event(item.kind, 0, seat=seat, items=(item,)), item.points):
                return
        self._start_deal()

    # ----------------------------------------------------------------- public state

    @property
    def phase(self) -> Phase:
        """Where the game stands: whose decision it waits for, or that it is over."""
        return self._phase

    @property
    def dealer(self) -> int:
        """The seat dealing this deal."""
        return self._dealer

    @property
    def deal_number(self) -> int:
        """The current deal, counting from 0 (-1 before the first deal)."""
        return self._deal_index

    @property
    def scores(self) -> tuple[int, ...]:
        """Points per side (per seat unless the rules have partnerships)."""
        return tuple(self._scores)

    @property
    def winner(self) -> int | None:
        """The winning side once the game is over."""
        return self._winner

    @property
    def game_points(self) -> int:
        """Game points the winner earns for this game (1, or more for a skunk under that variant);
        0 while the game is not over."""
        if self._winner is None:
            return 0
        return self.rulebook.game_points(self.scores, self._winner)

    @property
    def is_over(self) -> bool:
        """Whether the game is over (its phase is `Phase.OVER`)."""
        return self._over

    @property
    def count(self) -> int:
        """The running count of the play (0 outside the play)."""
        return self._count

    @property
    def starter(self) -> Card | None:
        """The starter once it is turned up, else ``None``."""
        return self._cards.starter if self._cards is not None and self._starter_shown else None

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, unredacted. Players must use `view` instead."""
        return tuple(self._events)

    @property
    def claim_stage(self) -> str | None:
        """Under muggins: ``"count"`` while a seat must declare its count, ``"call"`` while opposing
        seats may call muggins on it; ``None`` otherwise."""
        return self._claim.stage if self._claim is not None else None

    @property
    def counting(self) -> int | None:
        """The seat whose count is being declared or may be challenged, if any."""
        return self._claim.seat if self._claim is not None else None

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now: every seat yet to discard, or the one seat to play, to declare a
        count, or to call muggins."""
        to_play = self._to_play
        if to_play is not None:
            # The play's common case first (the same answer as below; see `_to_play`).
            return self._alone[to_play]
        if self._claim is not None:
            return self._claim.to_act
        if self._plugin_phase is not None:
            return (self._plugin_phase.to_act,)
        if self._phase is _DISCARD:
            return self._to_discard
        if self._phase is _PLAY and self._to_play is not None:
            return (self._to_play,)
        return ()

    def deal_logs(self) -> tuple[DealLog, ...]:
        """Every deal so far, the current one as it stands, for writing a record."""
        logs = list(self._logs)
        if self._cards is not None:
            logs.append(self._current_log())
        return tuple(logs)

    # ----------------------------------------------------------------- actions

    def legal_actions(self, seat: SupportsIndex) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, in a stable order; empty when it may not act (and for
        anything that is not a seat number, an `int` in range: see `_is_seat`)."""
        to_play = self._to_play
        if to_play is not None:
            # The play's common case first (see `_to_play`), without the general checks below (hands
            # are kept sorted).
            # The seat's type first, as in `apply`.
            if not (type(seat) is int or self._is_seat(seat)) or seat != to_play:
                return ()
            room = PLAY_LIMIT - self._count
            if room >= self._top_value:
                return self._hand_plays[seat]
            # The seat's plays are kept in hand order: those whose card fits.
            return tuple([play for play in self._hand_plays[seat] if play.card.value <= room])
        if self._phase is _DISCARD and self._claim is None and self._plugin_phase is None:
            # The discard's common case: every seat yet to discard may act.
            if not ((type(seat) is int and 0 <= seat < self._seats) or self._is_seat(seat)):
                return ()
            if self._discards[seat] is not None:
                return ()
            if not self._checks_discards:
                known = self._discard_choices[seat]
                return known if known is not None else self._list_discards(seat)
        elif not self._is_seat(seat) or seat not in self.to_act:
            return ()
        if self._claim is not None:
            return self._claim.legal_actions
        if self._plugin_phase is not None:
            name = self._plugin_phase.name
            return tuple(PluginAction(name, text) for text in self.rulebook.phase_actions(self._plugin_phase))
        if self._phase is _DISCARD:
            return tuple(
                _discard_of(cards)
                for cards in combinations(self._hands[seat], self.rules.discards)
                if self._discard_refusal(seat, cards) is None
            )
        room = PLAY_LIMIT - self._count
        return tuple(_play_of(card) for card in self._hands[seat] if card.value <= room)

    def _list_discards(self, seat: int) -> tuple[Action, ...]:
        """Every discard of ``seat``'s hand when no plugin may refuse one: the same all deal long, so
        listed once (shared objects, which `apply` recognizes by identity: see `_is_listed_discard`)."""
        hand = self._hands[seat]
        choices: Sequence[Action]
        held = self._held[seat]
        if self.rules.discards == 2 and len(held) == 6 and held[5] < STANDARD_CARDS:
            # The standard deal's fifteen pairs, in `combinations` order, when every one was made before.
            a, b, c, d, e, f = held
            rows = _PAIR_ROWS
            ra, rb, rc, rd, r_e = rows[a], rows[b], rows[c], rows[d], rows[e]
            # Typed loosely so that, every entry made, it is the choices as it is (no `typing.cast` call).
            # fmt: off
            found: Any = (
                ra[b], ra[c], ra[d], ra[e], ra[f], rb[c], rb[d], rb[e], rb[f],
                rc[d], rc[e], rc[f], rd[e], rd[f], r_e[f],
            )
            # fmt: on
            if all(found):
                choices = found
            else:
                choices = [_pair_of(first, second) for first, second in combinations(hand, 2)]
        elif self.rules.discards == 2:
            choices = [_pair_of(a, b) for a, b in combinations(hand, 2)]
        else:
            choices = [_discard_of(cards) for cards in combinations(hand, self.rules.discards)]
        known = self._discard_choices[seat] = tuple(choices)
        return known

    def _is_listed_discard(self, seat: int, action: Action) -> bool:
        """Whether ``action`` is one of the discards `_list_discards` listed for ``seat``, whose hand is
        as it was then: the shared `Discard` (see `_DISCARDS`) of the right number of held cards. Told
        by identity, so `apply` takes it without the general checks."""
        if type(action) is not Discard:
            return False
        # Read untyped: a malformed discard's cards may be anything (see `_cards_of`).
        cards: object = _cards_of(action)
        if type(cards) is not tuple or len(cards) != self.rules.discards:
            return False
        held = self._held[seat]
        key = 0
        for card in cards:
            if type(card) is not Card or card.index not in held:
                return False
            key |= 1 << card.index
        return _DISCARDS.get(key) is action

    def check(self, seat: SupportsIndex, action: Action) -> None:
        """Raise the `IllegalAction` that applying ``action`` for ``seat`` would raise, or return.

        A seat that is not a whole number in range, or an action of the wrong form (see
        `cribcore.actions.check_form`), is refused like any other illegal action."""
        if not self._is_seat(seat):
            raise NotYourTurn(_no_seat(seat))
        check_form(action)
        if self._phase is _OVER:
            raise GameOver("the game is over")
        if self._phase is _WAITING:
            raise WrongPhase("no deal is in progress")
        if isinstance(action, PluginAction) or self._plugin_phase is not None:
            self._check_plugin_action(seat, action)
            return
        if isinstance(action, Count | Muggins | Pass):
            self._check_claim(seat, action)
            return
        if self._claim is not None:
            counter = self.players[self._claim.seat]
            raise WrongPhase(f"{counter}'s count must be settled first")
        if isinstance(action, Discard):
            self._check_discard(seat, action)
        elif isinstance(action, Play):
            self._check_play(seat, action)
        else:
            raise IllegalAction(f"not an action: {action!r}")

    def apply(self, seat: SupportsIndex, action: Action) -> tuple[Event, ...]:
        """Apply ``action`` for ``seat`` and return the events it caused (redacted for nobody).

        Raises an `IllegalAction` subclass, leaving the game exactly as it was, when the action is not
        legal now (a ``seat`` that is not a seat number included). Everything that follows without a
        decision (the starter, goes, the show, the next deal) happens before this returns.
        """
        # The seat's type first: an equal float (1.0 == 1) is not a seat, and a type checker (and so the
        # compiler) takes a seat equal to `_to_play` for an int.
        if (
            type(seat) is int
            and seat == self._to_play  # the play's common case (see `_to_play`)
            and isinstance(action, Play)
        ):
            # The common case, checked in full here: a held card that fits the count. Anything else gets
            # the general checks, which raise the error that fits.
            card = action.card
            if not (
                type(card) is Card
                and self._count + card.value <= PLAY_LIMIT
                and card.index in self._held[seat]
            ):
                self.check(seat, action)
            start = len(self._events)
            self._play(seat, card)
            return tuple(self._events[start:])
        if not ((type(seat) is int and 0 <= seat < self._seats) or self._is_seat(seat)):
            raise NotYourTurn(_no_seat(seat))  # as `check` would
        if not (
            self._discard_choices[seat] is not None
            and self._phase is _DISCARD
            and self._discards[seat] is None
            and self._claim is None
            and self._plugin_phase is None
            and self._is_listed_discard(seat, action)
        ):
            # Not one of the legal discards this game listed for the seat: checked in full.
            self.check(seat, action)
        start = len(self._events)
        if isinstance(action, Play):
            self._play(seat, action.card)
        elif isinstance(action, Discard):
            self._discard(seat, action.cards)
        elif isinstance(action, PluginAction):
            self._plugin_act(seat, action.text)
        else:
            self._settle(seat, action)
        return tuple(self._events[start:])

    def view(self, seat: SupportsIndex) -> SeatView:
        """What ``seat`` may know now: never another seat's hidden cards. A ``seat`` that is not a seat
        number raises `ValueError`."""
        if not (type(seat) is int and 0 <= seat < self._seats) and not self._is_seat(seat):
            raise ValueError(_no_seat(seat))
        claim = self._claim
        to_act: tuple[int, ...]
        if self._phase is _PLAY and claim is None and self._plugin_phase is None:
            # The play's common case (the same answers as `to_act` and `legal_actions`).
            to_play = self._to_play
            to_act = () if to_play is None else self._alone[to_play]
            legal = self.legal_actions(seat) if seat == to_play else ()
        elif self._phase is _DISCARD and claim is None and self._plugin_phase is None:
            # The discard's common case (the same answers as `to_act` and `legal_actions`).
            to_act = self._to_discard
            listed = self._discard_choices[seat]
            legal = (
                listed if listed is not None and self._discards[seat] is None else self.legal_actions(seat)
            )
        else:
            to_act = self.to_act
            legal = self.legal_actions(seat) if seat in to_act else ()
        cards = self._cards
        # Every field of `SeatView`, in field order.
        return make_view(
            seat,
            self.players,
            self.rules,
            self._profile_name,
            _PHASE_TEXT[self._phase],
            self._deal_index,
            self._dealer,
            self._score_tuple,
            self._winner,
            tuple(self._hands[seat]),
            self._kept[seat],
            self._discards[seat] or (),
            tuple(map(len, self._hands)),
            len(self._crib),
            cards.starter if cards is not None and self._starter_shown else None,
            self._count,
            tuple(self._pile),
            tuple(map(tuple, self._laid)),
            to_act,
            None if claim is None else "count" if claim.declared is None else "call",
            None if claim is None else claim.seat,
            self.target_wins,
            self.play_continues,
            None if claim is None else claim.points,
            legal,
            lazy_events(self._events_seen_upto, seat, len(self._events)),
            self._plugin_phase,
            self.rulebook,
        )

    def _is_seat(self, seat: object) -> TypeGuard[int]:
        """Whether ``seat`` is a seat number: an `int` (not a `bool`) in range. The public methods take
        ``seat`` as a `SupportsIndex` so that a type checker still refuses a str or a float, where a
        compiled engine (docs/speed.md) would check an `int` annotation itself and raise `TypeError`
        instead of the engine's own refusal."""
        # bool is an int subclass and 1.0 == 1, but neither indexes a seat.
        return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.rules.seats

    def _events_seen_upto(self, seat: int, length: int) -> tuple[Event, ...]:
        """The seat's redacted log of the first ``length`` events (the log is append-only, so this is
        the same whenever it is asked): redacted once per event, the latest tuple kept and shared."""
        seen = self._seen[seat]
        if len(seen) == length:
            return seen
        redacted = self._seen_lists[seat]
        done = len(redacted)
        if done < length:
            redacted.extend(
                [
                    event if event.private_to is None or event.private_to == seat else redact(event, seat)
                    for event in self._events[done:length]
                ]
            )
        result = tuple(redacted[:length])
        if length > len(seen):
            self._seen[seat] = result
        return result

    # ----------------------------------------------------------------- checks

    def _discard_refusal(self, seat: int, cards: tuple[Card, ...]) -> str | None:
        assert self._cards is not None
        return self.rulebook.check_discard(self._cards.hands[seat], cards, dealer=self._dealer, seat=seat)

    def _check_discard(self, seat: int, action: Discard) -> None:
        if self._phase is not _DISCARD:
            raise WrongPhase("the discard is over; play a card")
        if self._discards[seat] is not None:
            raise NotYourTurn("you have already discarded")
        need = self.rules.discards
        cards = action.cards
        if len(cards) != need:
            raise BadDiscard(f"discard exactly {need} card{'s' if need != 1 else ''}, not {len(cards)}")
        if len(set(cards)) != len(cards):
            raise BadDiscard(f"a card is named twice in {format_cards(cards)}")
        missing = [card for card in cards if card not in self._hands[seat]]
        if missing:
            raise CardNotHeld(f"you do not hold {format_cards(missing)}")
        reason = self._discard_refusal(seat, cards)
        if reason is not None:
            raise BadDiscard(reason)

    def _check_claim(self, seat: int, action: Count | Muggins | Pass) -> None:
        claim = self._claim
        if claim is None:
            raise WrongPhase("there is no count to declare or call muggins on")
        if seat not in self.to_act:
            raise NotYourTurn(f"it is {self.players[self.to_act[0]]}'s turn")
        claim.check(action)

    def _check_play(self, seat: int, action: Play) -> None:
        if self._phase is not _PLAY:
            raise WrongPhase("it is time to discard, not to play")
        if seat != self._to_play:
            raise NotYourTurn(f"it is {self.players[self._to_play or 0]}'s turn to play")
        card = action.card
        if card not in self._hands[seat]:
            raise CardNotHeld(f"you do not hold {card}")
        if self._count + card.value > PLAY_LIMIT:
            raise OverThirtyOne(
                f"{card} would take the count to {self._count + card.value}, past {PLAY_LIMIT}"
            )

    # ----------------------------------------------------------------- flow

    def _emit(self, event: Event) -> None:
        self._events.append(event)

    def _award(self, event: Event, points: int) -> bool:
        """Record a scoring event for ``event.seat``'s side; return whether it ended the game."""
        assert event.seat is not None
        kind, seat = event.kind, event.seat
        return self._score(kind, seat, points, event.cards, event.items, event.count, event.note, event.deal)

    def _score(
        self,
        kind: str,
        seat: int,
        points: int,
        cards: tuple[Card, ...] = (),
        items: Any = (),
        count: int | None = None,
        note: str = "",
        deal: int | None = None,
    ) -> bool:
        """Record a scoring event of ``kind`` for ``seat``'s side (built once, scores and all) in
        ``deal`` (the current deal unless given: a game-start award belongs to the first); return
        whether it ended the game. ``items`` are a tuple or lazy items (`cribcore.events.lazy_items`)."""
        side = self._side_of[seat]
        self._scores[side] += points
        scores = self._score_tuple = tuple(self._scores)
        deal_index = self._deal_index if deal is None else deal
        event = make_event(kind, deal_index, seat, cards, points, items, scores, count, True, None, note)
        self._events.append(event)
        if points == 0:
            return False
        targets = self._targets
        if targets is not None:
            if scores[side] < targets[side]:
                return False
            winner: int | None = side
        else:
            winner = self.rulebook.winner(scores, side)
            if winner is None:
                return False
        self._winner = winner
        self._phase = _OVER
        self._over = True
        self._to_play = None
        self._claim = None
        self._emit(make_event("win", self._deal_index, seat=seat, scores=scores, side=winner))
        if self._cards is not None:
            self._logs.append(self._current_log())
            self._cards = None
        return True

    def _current_log(self) -> DealLog:
        cards = self._cards
        assert cards is not None
        # Built by plain assignment (see `cribcore.events.unguarded`): a frozen dataclass's ``__init__``
        # costs more.
        log = _new(_LogSlots)
        log.dealer = self._dealer
        log.hands = cards.hands
        log.crib_cards = cards.crib_cards
        log.starter = cards.starter
        log.discards = tuple(self._discards)
        log.plays = tuple(self._plays)
        log.claims = tuple(self._claims)
        log.discard_order = tuple(self._discard_order)
        log.phase_actions = tuple(self._phase_texts)
        log.__class__ = DealLog
        built: DealLog = log  # typed by assignment: `typing.cast` is a Python call
        return built

    # ----------------------------------------------------------------- plugin phases

    def _check_plugin_action(self, seat: int, action: Action) -> None:
        state = self._plugin_phase
        if state is None:
            raise WrongPhase(f"there is no {getattr(action, 'phase', 'plugin')} phase now")
        if not isinstance(action, PluginAction) or action.phase != state.name:
            raise WrongPhase(f"the {state.name} comes first: {', '.join(self.rulebook.phase_actions(state))}")
        if seat != state.to_act:
            raise NotYourTurn(f"it is {self.players[state.to_act]}'s turn")
        legal = self.rulebook.phase_actions(state)
        if action.text not in legal:
            raise IllegalAction(f"{action.text!r} is not allowed now: {', '.join(legal)}")

    def _before_deal(self) -> None:
        """Run the plugins' phases for the coming deal (if any), then start it."""
        index = self._deal_index + 1
        self._phase_texts = []
        if self.rulebook.has_phases and self._source.deal(index, self._dealer, self.rules) is not None:
            self._phases_left = list(self.rulebook.phase_openings(index, self._dealer, self.scores))
        self._open_next_phase()

    def _open_next_phase(self) -> None:
        if not self._phases_left:
            self._plugin_phase = None
            self._start_deal()
            return
        name, seat = self._phases_left.pop(0)
        index = self._deal_index + 1
        self._plugin_phase = PhaseState(name, index, self._dealer, seat, self.scores)
        self._phase = _PLUGIN
        self._emit(make_event("phase", index, seat=seat, note=name))

    def _plugin_act(self, seat: int, text: str) -> None:
        state = self._plugin_phase
        assert state is not None
        step = self.rulebook.phase_apply(state, seat, text)
        self._phase_texts.append(text)
        self._emit(make_event(state.name, state.deal, seat=seat, note=text))
        for who, item in step.awards:
            # No side goes below 0: a price is cut to the points the side has.
            points = max(item.points, -self._scores[self.rules.side_of(who)])
            note = step.note
            if self._award(make_event(item.kind, state.deal, seat=who, items=(item,), note=note), points):
                self._plugin_phase = None
                return
        if step.dealer is not None:
            self._dealer = step.dealer % self.rules.seats
        if step.to_act is not None:
            actions = (*state.actions, (seat, text))
            self._plugin_phase = PhaseState(
                state.name, state.deal, self._dealer, step.to_act, self.scores, actions
            )
            return
        self._open_next_phase()

    def _start_deal(self) -> None:
        index = self._deal_index + 1
        cards = self._source.deal(index, self._dealer, self.rules)
        if cards is None:
            self._phase = _WAITING
            return
        seats = self.rules.seats
        self._deal_index = index
        self._cards = cards
        # Kept in `Card` order, so legal actions and views need no sorting.
        self._hands = hands = [sorted(hand, key=_by_index) for hand in cards.hands]
        self._held = [list(map(_by_index, hand)) for hand in hands]
        if not self._seeded_standard:
            # Any source's cards may include extras (jokers): their count values are looked up too.
            self._value_table(cards)
        self._discard_choices = [None] * seats
        self._kept = [()] * seats
        self._discards = [None] * seats
        self._to_discard = tuple(range(seats))
        self._discard_order = []
        self._crib = list(cards.crib_cards)
        self._starter_shown = False
        self._plays = []
        self._laid = [[] for _ in range(seats)]
        self._pile = []
        self._pile_cards = []
        self._count = 0
        self._said_go = set()
        self._to_play = None
        self._claims = []
        self._phase = _DISCARD
        events = self._events
        events.append(make_event("deal", index, self._dealer))
        for seat, hand in enumerate(hands):
            events.append(make_event("dealt", index, seat, tuple(hand), 0, (), (), None, False, seat))
        if self.rules.discards == 0:
            for seat in range(seats):
                self._discards[seat] = ()
                self._to_discard = ()
                self._kept[seat] = tuple(self._hands[seat])
            self._turn_starter()

    def _value_table(self, cards: DealCards) -> None:
        """Count values by card index that cover this deal's extra cards (a plugin's jokers)."""
        dealt = [card for hand in cards.hands for card in hand]
        size = max([STANDARD_CARDS, *(card.index + 1 for card in dealt)])
        values = list(CARD_VALUE) + [0] * (size - STANDARD_CARDS)
        for card in dealt:
            values[card.index] = card.value
        self._values = values
        self._top_value = max(values)

    def _discard(self, seat: int, cards: tuple[Card, ...]) -> None:
        hand = self._hands[seat]
        held = self._held[seat]
        for card in cards:
            at = held.index(card.index)
            del held[at]
            del hand[at]
        self._kept[seat] = tuple(hand)
        self._discards[seat] = cards
        # The other seats still to discard (`filter` in C, where a comprehension makes a frame).
        self._to_discard = to_come = tuple(filter(seat.__ne__, self._to_discard))
        self._discard_order.append(seat)
        self._crib.extend(cards)
        event = make_event("discard", self._deal_index, seat, cards, 0, (), (), None, False, seat)
        self._events.append(event)
        if not to_come:
            self._turn_starter()

    def _turn_starter(self) -> None:
        assert self._cards is not None
        starter = self._cards.starter
        self._starter_shown = True
        self._events.append(make_event("starter", self._deal_index, self._dealer, (starter,)))
        items = self.rulebook.starter_items(starter, dealer=self._dealer)
        if items:
            event = make_event("heels", self._deal_index, seat=self._dealer, cards=(starter,), items=items)
            if self._award(event, sum(item.points for item in items)):
                return
        self._phase = _PLAY
        self._hand_plays = [_plays_of(hand) for hand in self._hands]
        self._to_play = next_holding(self._hands, self._dealer)
        if self._to_play is None:
            self._show()

    def _play(self, seat: int, card: Card) -> None:
        if not self._standard_play:
            # A plugin's items are asked before anything changes: a hook that fails leaves the game
            # as it was (the standard items, below, cannot fail).
            items = self.rulebook.play_items((*self._pile_cards, card), seat=seat, dealer=self._dealer)
        held_all = self._held
        held = held_all[seat]
        at = held.index(card.index)
        del held[at]
        del self._hands[seat][at]
        plays = self._hand_plays[seat]
        self._hand_plays[seat] = plays[:at] + plays[at + 1 :]
        self._laid[seat].append(card)
        self._plays.append(card)
        self._pile.append((seat, card))
        pile = self._pile_cards
        pile.append(card)
        count = self._count = self._count + card.value
        if self._standard_play:
            # Most cards score nothing: those are told apart here, sparing them the items' call (only a
            # fifteen, 31, a pair or a count whose last three ranks may end a run can score).
            rank, size = card.rank, len(pile)
            if (
                count == 15
                or count == PLAY_LIMIT
                or (
                    size >= 2
                    and (
                        pile[-2].rank == rank
                        or (size >= 3 and may_end_run(rank, pile[-2].rank, pile[-3].rank, size))
                    )
                )
            ):
                items = counted_play_items(pile, count)
            else:
                items = ()
        if self._declares_play:
            event = make_event("play", self._deal_index, seat=seat, cards=(card,), items=items, count=count)
            self._play_declared(seat, event)
            return
        points = 0
        if items:  # most cards score nothing
            for item in items:
                points += item.points
        if points:
            if self._score("play", seat, points, (card,), items, count):
                return
        else:
            event = make_event("play", self._deal_index, seat, (card,), 0, items, (), count)
            self._events.append(event)
        if count < PLAY_LIMIT:
            if PLAY_LIMIT - count >= self._top_value:
                # Every held card fits: the next seat holding cards (`next_holding` written out, as it
                # runs once a card).
                for nxt in self._after[seat]:
                    if held_all[nxt]:
                        self._to_play = nxt
                        return
            else:
                able = self._next_able(seat)
                if able is not None:
                    self._to_play = able
                    return
            last = not any(self._hands)
            note = "last card" if last else "go"
            cards, go = _go_of(card)
            if self._score("go", seat, GO_POINTS, cards, go, count, note):
                return
        self._close_count(seat)

    def _play_declared(self, seat: int, event: Event) -> None:
        """The play under muggins: the card's points, its go or last-card point included, are declared."""
        self._emit(replace(event, items=()))
        card = event.cards[0]
        items = event.items
        nxt = self._next_able(seat) if self._count < PLAY_LIMIT else None
        if scores_go(nxt, self._count):
            items = (*items, ScoreItem(GO, (card,), GO_POINTS))

        def then() -> None:
            if nxt is not None:
                self._to_play = nxt
            else:
                self._close_count(seat)

        self._to_play = None
        self._claim = Claim(seat, (card,), items, then)

    def _settle(self, seat: int, action: Count | Muggins | Pass) -> None:
        """Apply a claim action: the claim says what it makes; the game scores it, and once the claim is
        settled (and the game goes on) does what comes after the count."""
        self._claims.append(str(action))
        claim = self._claim
        assert claim is not None
        if isinstance(action, Count):
            step = claim.declare(action.points, self.rules, self._deal_index)
        elif isinstance(action, Pass):
            step = claim.pass_(self._deal_index)
        else:
            scored = self.rulebook.muggins(action.points, claim.missed)
            step = claim.call(seat, action.points, scored, self.players[seat], self._deal_index)
        for event, points in step.events:
            if points is None:
                self._emit(event)
            elif self._award(event, points):
                return
        if step.settled:
            self._claim = None
            claim.then()

    def _next_able(self, last: int) -> int | None:
        """The next seat after ``last`` (``last`` itself last) able to lay a card on the count; seats
        passed over that hold cards say go, once per count."""
        count = self._count
        if PLAY_LIMIT - count >= self._top_value:
            # Every held card fits: the next seat holding cards lays, and nobody is passed over.
            return next_holding(self._held, last)
        able = next_able(self._held, last, count, self._values)
        if able is not None and able == self._after[last][0]:
            return able  # the next seat lays: nobody is passed over
        for seat in passed_over(self._held, last, able):
            if seat not in self._said_go:
                self._said_go.add(seat)
                self._emit(make_event("says-go", self._deal_index, seat=seat, count=count))
        return able

    def _close_count(self, last: int) -> None:
        self._events.append(make_event("reset", self._deal_index, last, (), 0, (), (), self._count))
        self._pile = []
        self._pile_cards = []
        self._count = 0
        self._said_go = set()
        leader = next_holding(self._held, last)
        if leader is not None and (
            self._always_continues or self.rulebook.play_continues(tuple(len(hand) for hand in self._hands))
        ):
            self._to_play = leader
            return
        self._show()

    def _show(self) -> None:
        self._to_play = None
        self._show_from(self.rulebook.counting_order(self._dealer), 0)

    def _show_from(self, order: tuple[int, ...], step: int) -> None:
        """Count the hands from ``order[step]`` on, then the crib, then start the next deal. Under
        muggins the show pauses at each count for the seat to declare it."""
        assert self._cards is not None
        starter = self._cards.starter
        for index in range(step, len(order) + 1):
            crib = index == len(order)
            seat = self._dealer if crib else order[index]
            cards = tuple(sorted(self._crib, key=_by_index)) if crib else self._kept[seat]
            kind = "crib" if crib else "hand"
            items: Any  # a tuple, or lazy items (see `cribcore.events.lazy_items`)
            if self._counts_shows and not self._declares[kind]:
                # Counted from the show tables; the items are worked out only if someone reads them.
                if self._standard_show:
                    points = show_total_standard(cards, starter, crib)
                    # `lazy_items` without its argument packing: a partial of positional arguments is
                    # built in half the time (three a deal).
                    items = functools.partial(_crib_items if crib else _hand_items, cards, starter)
                else:
                    book, dealer = self.rulebook, self._dealer
                    points = book.show_total(cards, starter, crib=crib, seat=seat, dealer=dealer)
                    items = lazy_items(book.show_items, cards, starter, crib=crib, seat=seat, dealer=dealer)
                if self._score(kind, seat, points, cards, items):
                    return
                continue
            items = self.rulebook.show_items(cards, starter, crib=crib, seat=seat, dealer=self._dealer)
            if self._declares[kind]:
                self._phase = _SHOW
                self._emit(make_event(kind, self._deal_index, seat=seat, cards=cards, note="to count"))
                then = functools.partial(self._show_from, order, index + 1)
                self._claim = Claim(seat, cards, items, then)
                return
            points = 0
            for item in items:
                points += item.points
            if self._score(kind, seat, points, cards, items):
                return
        self._logs.append(self._current_log())
        self._cards = None
        self._dealer = (self._dealer + 1) % self.rules.seats
        self._before_deal()


# Interpreted, `is_over` is read by a C getter from the field kept with the phase: every driving loop asks
# it once an action, and a property's Python call costs several times the read. Set here, not in the
# class, so that type checkers and the compiler see the typed property. Compiled (mypyc, docs/speed.md)
# the class is closed (a TypeError) and its own property is already C.
with contextlib.suppress(TypeError):
    setattr(Game, "is_over", property(attrgetter("_over"), doc=Game.is_over.__doc__))  # noqa: B010
