"""A game's state: every field a `cribcore.engine.Game` keeps, the phases it moves through, scoring an
event (and ending the game when a side wins), and the hand-overs between phases.

The phase modules (`cribcore.game.deal`, `play`, `show`, `claims`, `plugin_phases`) are functions of a
`GameState`; a phase ends by calling one of the ``_begin_*`` methods here, which the coordinator
(`cribcore.engine.Game`) answers with the next phase. The fields are slots on this one class, read and
written at a fixed place (a game reads several of them an action).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from ..actions import Action, Play
from ..cards import Card
from ..claims import Claim
from ..deals import DealCards, DealLog, DealSource
from ..events import Event, make_event, unguarded
from ..phases import PhaseState
from ..profiles import Profile
from ..rulebook import Rulebook
from ..rules import RuleSet

__all__ = ["COUNT_KINDS", "GameState", "Phase", "by_index", "seat_tables"]


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


PHASE_TEXT = {phase: phase.value for phase in Phase}
# The phases as module constants: an enum member read through its class costs a lookup every time.
DISCARD, PLAY, SHOW, PLUGIN, WAITING, OVER = (
    Phase.DISCARD,
    Phase.PLAY,
    Phase.SHOW,
    Phase.PLUGIN,
    Phase.WAITING,
    Phase.OVER,
)

COUNT_KINDS = ("play", "hand", "crib")
"""The counts a profile may have declared under muggins."""

by_index = attrgetter("index")
"""The sort key of cards in `Card` order (a C call, unlike a Python function)."""

_LogSlots = unguarded(DealLog)
_new = object.__new__

SeatTables = tuple[
    tuple[int, ...], tuple[tuple[int], ...], tuple[int, ...] | None, tuple[tuple[int, ...], ...]
]
_SEAT_TABLES: dict[int, tuple[Rulebook, RuleSet, SeatTables]] = {}
"""`seat_tables` by rulebook identity (every game of a profile shares its rulebook)."""


def seat_tables(book: Rulebook, rules: RuleSet) -> SeatTables:
    """Each seat's side, each seat alone as a tuple (a `Game.to_act` answer), each side's target when
    the standard winner rule holds (else ``None``), and the seats after each seat round the table (the
    seat itself last, as `cribcore.turns` goes round): the same for every game under ``book``, so
    worked out once per rulebook rather than once per game."""
    known = _SEAT_TABLES.get(id(book))
    if known is not None and known[0] is book and known[1] is rules:
        return known[2]
    tables: SeatTables = (
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


class GameState:
    """The fields of a game, set by `cribcore.engine.Game.__init__`, and what every phase shares."""

    # Slots, not an instance dict: a game keeps more fields than CPython shares a dict's keys for (30).
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

    # The game and its rules, fixed at the start.
    profile: Profile
    rules: RuleSet
    rulebook: Rulebook
    target_wins: bool
    play_continues: bool
    pack: tuple[Card, ...]
    seed: int | None
    players: tuple[str, ...]
    _profile_name: str
    _seats: int
    _source: DealSource
    _seeded_standard: bool
    # The profile's hooks resolved once (see `cribcore.engine.Game.__init__`).
    _declares: dict[str, bool]
    _declares_play: bool
    _standard_play: bool
    _standard_show: bool
    _checks_discards: bool
    _always_continues: bool
    _counts_shows: bool
    _side_of: tuple[int, ...]
    _alone: tuple[tuple[int], ...]
    _targets: tuple[int, ...] | None
    _after: tuple[tuple[int, ...], ...]
    # The whole game.
    _events: list[Event]
    _seen_lists: list[list[Event]]
    _seen: list[tuple[Event, ...]]
    _scores: list[int]
    _score_tuple: tuple[int, ...]
    """`_scores` as a tuple, renewed whenever they change (every view and event shares it)."""
    _winner: int | None
    _phase: Phase
    _over: bool
    """Whether `_phase` is `OVER` (see `Game.is_over`)."""
    _deal_index: int
    _dealer: int
    _logs: list[DealLog]
    # The current deal (`cribcore.game.deal`).
    _cards: DealCards | None
    _hands: list[list[Card]]
    _held: list[list[int]]
    _values: Sequence[int]
    _top_value: int
    """No card dealt this deal counts more: a count with this much room takes any held card."""
    _discard_choices: list[tuple[Action, ...] | None]
    _kept: list[tuple[Card, ...]]
    _discards: list[tuple[Card, ...] | None]
    _to_discard: tuple[int, ...]
    """The seats whose discard is still to come, in seat order (renewed with `_discards`)."""
    _discard_order: list[int]
    _crib: list[Card]
    _starter_shown: bool
    # The play (`cribcore.game.play`).
    _hand_plays: list[tuple[Play, ...]]
    """Each seat's `Play` of every held card, in hand order."""
    _plays: list[Card]
    _laid: list[list[Card]]
    _pile: list[tuple[int, Card]]
    _pile_cards: list[Card]
    _count: int
    _said_go: set[int]
    _to_play: int | None
    """The seat to lay the next card. Set only while the play waits for it (the phase is the play,
    with no claim and no plugin phase open), so a set one alone tells the play's common case."""
    # Muggins (`cribcore.game.claims`) and the plugins' phases (`cribcore.game.plugin_phases`).
    _claim: Claim | None
    _claims: list[str]
    _plugin_phase: PhaseState | None
    _phases_left: list[tuple[str, int]]
    _phase_texts: list[str]

    # ----------------------------------------------------------------- hand-overs (the coordinator's)

    def _begin_play(self) -> None:
        """The starter is turned and the game goes on: the play starts."""
        raise NotImplementedError

    def _begin_show(self) -> None:
        """The play is over: the show starts."""
        raise NotImplementedError

    def _begin_next_deal(self) -> None:
        """The show is over and the dealer has moved on: the next deal (or its plugin phases) starts."""
        raise NotImplementedError

    # ----------------------------------------------------------------- scoring

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
        self._phase = OVER
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
