"""Per-seat views: everything one seat may know, and nothing more.

A `SeatView` is what the terminal, the computer players and a network server act on. It holds the seat's
own cards, how many cards the others hold, the public table (starter, count, cards laid, shown hands),
the scores, and the event log with other seats' private events stripped of their cards. It never holds
another seat's hidden cards: the engine builds it, and a test checks it after every action.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from .actions import Action
from .cards import Card
from .events import Event, lazy_field, unguarded
from .phases import PhaseState
from .rulebook import Rulebook, rulebook_for
from .rules import RuleSet

__all__ = ["SeatView", "lazy_events", "make_view"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of the game at one moment. Immutable."""

    seat: int
    players: tuple[str, ...]
    rules: RuleSet
    profile: str
    phase: str
    """``discard``, ``play``, ``plugin``, ``waiting`` or ``over`` (see `cribcore.engine.Phase`)."""
    deal: int
    dealer: int
    scores: tuple[int, ...]
    """Points per side."""
    winner: int | None
    hand: tuple[Card, ...]
    """The cards this seat holds now, sorted."""
    kept: tuple[Card, ...]
    """The cards this seat kept after its discard (its hand for the show)."""
    discarded: tuple[Card, ...]
    """The cards this seat laid away to the crib this deal."""
    held: tuple[int, ...]
    """How many cards each seat holds now."""
    crib_size: int
    starter: Card | None
    count: int
    pile: tuple[tuple[int, Card], ...]
    """The current count's cards, with the seat that laid each, in order."""
    laid: tuple[tuple[Card, ...], ...]
    """The cards each seat has laid this deal, in order."""
    to_act: tuple[int, ...]
    claim_stage: str | None
    """Under muggins: ``"count"`` (a seat declares its count) or ``"call"`` (muggins may be called)."""
    counting: int | None
    """The seat whose count is being settled under muggins."""
    target_wins: bool
    """Whether the first side to reach the target wins (``False`` under lowball, where it loses)."""
    play_continues: bool
    """Whether the play goes on to a new count after a count closes (``False`` in five-card, whose
    play is one count)."""
    claim_points: int | None
    """The true points of the count being settled (from cards every seat has seen): what a perfect
    counter declares. Computer players use it; a terminal must not show it to a human before they act."""
    legal_actions: tuple[Action, ...]
    """What this seat may do now; empty when it is not this seat's turn."""
    events: tuple[Event, ...]
    plugin_phase: PhaseState | None = None
    """The plugin phase under way before a deal (``phase`` is ``"plugin"``), public to every seat; its
    legal actions are `PluginAction` values in `legal_actions`."""
    rulebook: Rulebook = field(default=cast(Rulebook, None), compare=False, repr=False)
    """The game's rules authority: players and hints score and decide with it, never with their own
    copy of the rules. A view built without one (from the wire) gets its profile's by name, the
    standard one when the profile is not a built-in (see `__post_init__`)."""

    def __post_init__(self) -> None:
        if cast("Rulebook | None", self.rulebook) is None:
            object.__setattr__(self, "rulebook", _rulebook_named(self.profile, self.rules))

    @property
    def side(self) -> int:
        """The side this seat scores for (its own seat number unless partners share a score)."""
        return self.rules.side_of(self.seat)

    @property
    def is_dealer(self) -> bool:
        """Whether this seat deals this deal."""
        return self.seat == self.dealer

    @property
    def my_turn(self) -> bool:
        """Whether this seat has a decision to make now (it has legal actions)."""
        return bool(self.legal_actions)

    def new_events(self, since: int) -> tuple[Event, ...]:
        """The events after the first ``since`` ones (for showing what happened since last time)."""
        return self.events[since:]


def _view_maker() -> Callable[..., SeatView]:
    """`make_view`, written out for `SeatView`'s fields as `dataclasses` writes an ``__init__``: one
    parameter per field, each stored by plain assignment on an unguarded twin of the class, which then
    becomes a `SeatView` (see `cribcore.events.unguarded`; no frozen ``__setattr__``, no setter calls)."""
    names = tuple(SeatView.__dataclass_fields__)
    namespace: dict[str, Any] = {"_new": object.__new__, "_Slots": unguarded(SeatView), "SeatView": SeatView}
    lines = [f"def make_view({', '.join(names)}):", "    view = _new(_Slots)"]
    lines += [f"    view.{name} = {name}" for name in names]
    lines += ["    view.__class__ = SeatView", "    return view"]
    exec("\n".join(lines), namespace)  # our own text, built from the field names
    return cast("Callable[..., SeatView]", namespace["make_view"])


make_view = _view_maker()
make_view.__doc__ = """``SeatView(...)`` from every field's value, positionally in field order, the rulebook
included (a wrong number of values raises `TypeError`): built by plain assignment, in a fraction of the
time of the frozen dataclass's ``__init__`` (the engine builds one view per decision)."""


# ``events`` may be stored unworked out, as a `functools.partial` that builds the tuple (see `lazy_events`).
lazy_field(SeatView, "events", "The seat's event log (built when first read).")


if TYPE_CHECKING:

    def lazy_events(build: Callable[..., tuple[Event, ...]], *args: Any) -> Any:
        """Events for `make_view` that are built by ``build(*args)`` only when the view's ``events``
        are first read (a computer player that never reads them costs no copy of a growing log).
        ``build`` must give the same tuple whenever it is called: the log as it stood when the view
        was made. Typed `Any`, as `cribcore.events.lazy_items` is: it is a partial until read."""

else:
    # `partial` itself, called directly: the lazy field recognizes a stored partial, and one C call a
    # view is a third of the time of a function that makes one (the engine makes a view per decision).
    lazy_events = partial


@functools.lru_cache(maxsize=32)
def _rulebook_named(name: str, rules: RuleSet) -> Rulebook:
    """The rulebook of the built-in profile ``name`` when its rules are ``rules``, else the standard
    rules with ``rules`` (a client that only knows a profile's name and rules). ``name`` may come from
    a server: only a built-in profile's name is looked up, never a file (a name with ``/`` is a path)."""
    from .profiles import Profile, ProfileError, builtin_profile

    profile: Profile | None = None
    try:
        profile = builtin_profile(name)
    except ProfileError:
        profile = None
    if profile is None or profile.rules != rules:
        profile = Profile(name=name, rules=rules)
    return rulebook_for(profile)
