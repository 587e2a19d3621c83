"""A count under muggins, from its declaration to its settling: the claim's own small state machine.

Under muggins a seat declares each of its counts (a card's points in the play, a hand or the crib in
the show), and then each opposing seat in turn may pass or call the points it missed. A `Claim` holds
one such count while it is open: who may act on it, which actions it takes, and, for each action, the
events it makes and the points they award (`ClaimStep`). It scores nothing itself: the game applies a
step's events in order, stops if one of them ends the game, and runs the claim's ``then`` once the
claim is settled. Muggins' scoring (what a call is worth) comes from the profile's rulebook, through the
game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .actions import CLAIM_LIMIT, Action, BadClaim, Count, Muggins, Pass, WrongPhase
from .cards import Card
from .events import Event, make_event
from .rules import RuleSet
from .scoring import ScoreItem

__all__ = ["CALLS", "COUNTS", "Claim", "ClaimStep"]

COUNTS: tuple[Action, ...] = tuple(Count(n) for n in range(CLAIM_LIMIT + 1))
"""What a seat may declare its count as."""

CALLS: tuple[Action, ...] = (Pass(), *(Muggins(n) for n in range(1, CLAIM_LIMIT + 1)))
"""What an opposing seat may answer a declared count with."""


@dataclass(frozen=True, slots=True)
class ClaimStep:
    """What one action on a claim does: ``events`` in order, each with the points it awards to its
    seat's side (``None``: an event that only tells, awarding nothing); ``settled``: whether the claim
    is over once they are applied (unless one of them ended the game)."""

    events: tuple[tuple[Event, int | None], ...]
    settled: bool


@dataclass(slots=True)
class Claim:
    """A count waiting to be declared by ``seat``, then for the opposing seats' calls.

    ``items`` are the count's true score items; ``then`` is what the game does once the count is
    settled. ``declared`` is ``None`` until the seat declares; ``missed`` is what the declaration left
    out; ``callers`` are the opposing seats still to answer, in order."""

    seat: int
    cards: tuple[Card, ...]
    items: tuple[ScoreItem, ...]
    then: Callable[[], None]
    declared: int | None = None
    missed: int = 0
    callers: list[int] = field(default_factory=list)

    @property
    def points(self) -> int:
        """The count's true points."""
        return sum(item.points for item in self.items)

    @property
    def stage(self) -> str:
        """``"count"`` while the seat must declare, ``"call"`` while opposing seats may call."""
        return "count" if self.declared is None else "call"

    @property
    def to_act(self) -> tuple[int, ...]:
        """The one seat that acts on the claim now."""
        return (self.seat,) if self.declared is None else (self.callers[0],)

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """What the seat to act may do: declare a count, or pass or call."""
        return COUNTS if self.declared is None else CALLS

    def check(self, action: Count | Muggins | Pass) -> None:
        """Raise the `cribcore.actions.IllegalAction` that refuses ``action`` at this stage, if any
        (whose turn it is, the game checks)."""
        if self.declared is None and not isinstance(action, Count):
            raise WrongPhase("declare your count first, e.g. 'count 6'")
        if self.declared is not None and isinstance(action, Count):
            raise WrongPhase("the count is declared; call 'muggins N' or 'pass'")
        if isinstance(action, Count) and not 0 <= action.points <= CLAIM_LIMIT:
            raise BadClaim(f"a count is 0 to {CLAIM_LIMIT}, not {action.points}")
        if isinstance(action, Muggins) and not 1 <= action.points <= CLAIM_LIMIT:
            raise BadClaim(f"muggins claims 1 to {CLAIM_LIMIT} points, not {action.points}")

    def declare(self, declared: int, rules: RuleSet, deal: int) -> ClaimStep:
        """The seat declares ``declared`` points in deal ``deal``. An overcount is corrected openly
        and settles the count; otherwise the opposing seats may call what was missed."""
        true = self.points
        over = declared > true
        self.declared = declared
        note = f"declared {declared}" + (f", corrected to {true}" if over else "")
        items = self.items if over else ()
        event = make_event("count", deal, seat=self.seat, cards=self.cards, items=items, note=note)
        self.missed = 0 if over else true - declared
        side, seats = rules.side_of(self.seat), rules.seats
        self.callers = [s for k in range(1, seats) if rules.side_of(s := (self.seat + k) % seats) != side]
        return ClaimStep(((event, min(declared, true)),), over or not self.callers)

    def pass_(self, deal: int) -> ClaimStep:
        """The seat to answer passes; after the last one, what was missed is told (and lost)."""
        self.callers.pop(0)
        if self.callers:
            return ClaimStep((), False)
        if not self.missed:
            return ClaimStep((), True)
        note = f"{self.missed} missed"
        event = make_event("missed", deal, seat=self.seat, cards=self.cards, items=self.items, note=note)
        return ClaimStep(((event, None),), True)

    def call(self, seat: int, claimed: int, scored: tuple[int, int], caller: str, deal: int) -> ClaimStep:
        """``seat`` (named ``caller``) calls muggins for ``claimed`` points; ``scored`` is what the
        profile's rulebook gives for it, ``(to_caller, to_counter)``: a false call's penalty goes to
        the counting seat. A call settles the count."""
        to_caller, to_counter = scored
        note = f"called {claimed}; " + (f"{self.missed} missed" if self.missed else "false call")
        event = make_event("muggins", deal, seat=seat, cards=self.cards, items=self.items, note=note)
        events: list[tuple[Event, int | None]] = [(event, to_caller)]
        if to_counter:
            penalty = make_event("penalty", deal, seat=self.seat, note=f"false muggins call by {caller}")
            events.append((penalty, to_counter))
        return ClaimStep(tuple(events), True)
