"""The game engine: one deterministic state machine for every profile.

A `Game` holds the whole state, hidden cards included. Players act through `legal_actions` and `apply`;
they see the game only through `view`, which holds what one seat may know. All chance comes from the
game's `DealSource` (a seed, or a record's cards), so a seed reproduces a game exactly. The rules come
from the profile's `RuleSet` and the plugins' hooks; the engine itself knows only the flow of a deal:
cut, deal, discard, starter, the play, the show, the next deal, and a win the moment a side reaches it.

`Game` coordinates: it answers the public calls, checks and routes each action, and hands a deal from
phase to phase; each phase lives in a module of `cribcore.game` (the deal and discard, the play, the
show, the muggins claims, the plugins' phases), written as functions of the game's state.
"""

from __future__ import annotations

import contextlib
import functools
import random
import reprlib
from collections.abc import Sequence
from operator import attrgetter
from typing import SupportsIndex, TypeGuard

from .actions import (
    Action,
    Count,
    Discard,
    GameOver,
    IllegalAction,
    Muggins,
    NotYourTurn,
    Pass,
    Play,
    PluginAction,
    WrongPhase,
    check_form,
)
from .cards import Card
from .deals import DealLog, DealSource, FirstDealerGiven, SeededDeals
from .events import Event, make_event, redact
from .game.claims import check_claim, settle
from .game.deal import (
    check_discard,
    checked_discards,
    clear_deal,
    discard,
    is_listed_discard,
    list_discards,
    start_deal,
)
from .game.play import begin_play, check_play, play_card
from .game.plugin_phases import before_deal, check_plugin_action, legal_plugin_actions, plugin_act
from .game.show import show
from .game.state import (
    COUNT_KINDS,
    DISCARD,
    OVER,
    PHASE_TEXT,
    PLAY,
    WAITING,
    GameState,
    Phase,
    seat_tables,
)
from .profiles import Profile, load_profile
from .rulebook import rulebook_for
from .scoring import PLAY_LIMIT
from .turns import CARD_VALUE
from .views import SeatView, lazy_events, make_view

__all__ = ["DealLog", "Game", "Phase", "standard_profile"]


@functools.lru_cache(maxsize=1)
def standard_profile() -> Profile:
    """The locked standard profile, loaded once."""
    return load_profile()


def _shown(value: object) -> str:
    """A caller's value, short enough to quote in an error."""
    return reprlib.repr(value)


def _no_seat(seat: object) -> str:
    """The refusal of a ``seat`` that is not a seat number (see `Game._is_seat`)."""
    return f"there is no seat {_shown(seat)}"


@functools.lru_cache(maxsize=16)
def _default_names(seats: int) -> tuple[str, ...]:
    """The players' names when none are given: ``Player 1``, ``Player 2``, …"""
    return tuple(f"Player {i + 1}" for i in range(seats))


class Game(GameState):
    """One game of cribbage under a profile (the locked standard profile by default).

    ``seed`` fixes every shuffle; without one (and without ``deals``) a random seed is chosen and kept
    in `seed` (and the record), so any game can be reproduced. ``deals`` replaces the shuffles with
    given cards (used to replay records). ``players`` are display names, one per seat.
    ``first_dealer`` skips the cut for deal and has that seat deal first (a match's next game).
    """

    __slots__ = ()

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
        self.rules = self.profile.rules
        # Every rules question goes to the profile's rulebook, shared with the players and commands.
        self.rulebook = rulebook_for(self.profile)
        self.target_wins = self.rulebook.target_wins
        self.play_continues = self.rulebook.play_goes_on
        self._declares = {kind: self.rulebook.declared(kind) for kind in COUNT_KINDS}
        self._declares_play = self._declares["play"]
        self.pack = self.rulebook.pack
        """The cards in play (the plugins' ``cribcore_pack``: the standard 52 unless a plugin adds some)."""
        # The profile's hooks resolved once: the standard answers are plain calls, not hook dispatches.
        book = self.rulebook
        self._standard_play = book.is_standard_play
        self._standard_show = book.is_standard_show
        self._checks_discards = book.checks_discards
        self._always_continues = book.play_always_continues
        self._side_of, self._alone, self._targets, self._after = seat_tables(book, self.rules)
        self._counts_shows = book.flush_rules is not None
        """Whether show totals come from the show tables (the standard show, or with hand-flush)."""
        if deals is None:
            seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
            deals = SeededDeals(seed, self.pack)
        if first_dealer is not None:
            deals = FirstDealerGiven(deals, first_dealer)
        self.seed = seed
        self._source = deals
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
        self.players = names

        self._events = []
        # Each seat's redacted copy of the (append-only) event log, extended as views read it, and the
        # last tuple of it handed out (shared by the views that read the same length).
        self._seen_lists = [[] for _ in range(seats)]
        self._seen = [() for _ in range(seats)]
        self._scores = [0] * self.rules.sides
        self._score_tuple = tuple(self._scores)
        self._seats = seats
        self._profile_name = self.profile.name
        self._winner = None
        self._phase = WAITING
        self._over = False
        self._deal_index = -1
        self._logs = []
        # The current deal.
        self._cards = None
        self._hands = [[] for _ in range(seats)]
        # The same hands as card indexes (for `cribcore.turns`), and each card index's count value.
        self._held = [[] for _ in range(seats)]
        self._values = CARD_VALUE
        self._top_value = max(CARD_VALUE)
        self._crib = []
        self._to_discard = ()
        clear_deal(self, seats)
        self._claim = None
        # Plugin phases before the coming deal: the one running, those still to run, actions taken.
        self._plugin_phase = None
        self._phases_left = []
        self._phase_texts = []

        cut = self._source.cut(self.rules)
        for round_ in cut.rounds:
            for seat, card in round_:
                self._emit(make_event("cut", 0, seat=seat, cards=(card,)))
        self._dealer = cut.dealer
        for seat, item in self.rulebook.game_start(self._dealer):
            if self._award(make_event(item.kind, 0, seat=seat, items=(item,)), item.points):
                return
        start_deal(self)

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
        if self._phase is DISCARD:
            return self._to_discard
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
        if self._phase is DISCARD and self._claim is None and self._plugin_phase is None:
            # The discard's common case: every seat yet to discard may act.
            if not ((type(seat) is int and 0 <= seat < self._seats) or self._is_seat(seat)):
                return ()
            if self._discards[seat] is not None:
                return ()
            if not self._checks_discards:
                known = self._discard_choices[seat]
                return known if known is not None else list_discards(self, seat)
        elif not self._is_seat(seat) or seat not in self.to_act:
            return ()
        if self._claim is not None:
            return self._claim.legal_actions
        if self._plugin_phase is not None:
            return legal_plugin_actions(self, self._plugin_phase)
        # A seat may act, and neither the play (answered first) nor a claim or a plugin phase is open:
        # the discard, when a plugin may refuse some.
        return checked_discards(self, seat)

    def check(self, seat: SupportsIndex, action: Action) -> None:
        """Raise the `IllegalAction` that applying ``action`` for ``seat`` would raise, or return.

        A seat that is not a whole number in range, or an action of the wrong form (see
        `cribcore.actions.check_form`), is refused like any other illegal action."""
        if not self._is_seat(seat):
            raise NotYourTurn(_no_seat(seat))
        check_form(action)
        if self._phase is OVER:
            raise GameOver("the game is over")
        if self._phase is WAITING:
            raise WrongPhase("no deal is in progress")
        if isinstance(action, PluginAction) or self._plugin_phase is not None:
            check_plugin_action(self, seat, action)
            return
        if isinstance(action, Count | Muggins | Pass):
            check_claim(self, seat, action)
            return
        if self._claim is not None:
            counter = self.players[self._claim.seat]
            raise WrongPhase(f"{counter}'s count must be settled first")
        if isinstance(action, Discard):
            check_discard(self, seat, action)
        elif isinstance(action, Play):
            check_play(self, seat, action)
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
            play_card(self, seat, card)
            return tuple(self._events[start:])
        if not ((type(seat) is int and 0 <= seat < self._seats) or self._is_seat(seat)):
            raise NotYourTurn(_no_seat(seat))  # as `check` would
        if not (
            self._discard_choices[seat] is not None
            and self._phase is DISCARD
            and self._discards[seat] is None
            and self._claim is None
            and self._plugin_phase is None
            and is_listed_discard(self, seat, action)
        ):
            # Not one of the legal discards this game listed for the seat: checked in full.
            self.check(seat, action)
        start = len(self._events)
        if isinstance(action, Play):
            play_card(self, seat, action.card)
        elif isinstance(action, Discard):
            discard(self, seat, action.cards)
        elif isinstance(action, PluginAction):
            plugin_act(self, seat, action.text)
        else:
            settle(self, seat, action)
        return tuple(self._events[start:])

    def view(self, seat: SupportsIndex) -> SeatView:
        """What ``seat`` may know now: never another seat's hidden cards. A ``seat`` that is not a seat
        number raises `ValueError`."""
        if not (type(seat) is int and 0 <= seat < self._seats) and not self._is_seat(seat):
            raise ValueError(_no_seat(seat))
        claim = self._claim
        to_act: tuple[int, ...]
        if self._phase is PLAY and claim is None and self._plugin_phase is None:
            # The play's common case (the same answers as `to_act` and `legal_actions`).
            to_play = self._to_play
            to_act = () if to_play is None else self._alone[to_play]
            legal = self.legal_actions(seat) if seat == to_play else ()
        elif self._phase is DISCARD and claim is None and self._plugin_phase is None:
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
            PHASE_TEXT[self._phase],
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

    # ----------------------------------------------------------------- hand-overs between phases

    def _begin_play(self) -> None:
        begin_play(self)

    def _begin_show(self) -> None:
        show(self)

    def _begin_next_deal(self) -> None:
        before_deal(self)


# Interpreted, `is_over` is read by a C getter from the field kept with the phase: every driving loop asks
# it once an action, and a property's Python call costs several times the read. Set here, not in the
# class, so that type checkers and the compiler see the typed property. Compiled (mypyc, docs/speed.md)
# the class is closed (a TypeError) and its own property is already C.
with contextlib.suppress(TypeError):
    setattr(Game, "is_over", property(attrgetter("_over"), doc=Game.is_over.__doc__))  # noqa: B010
