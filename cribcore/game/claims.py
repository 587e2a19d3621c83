"""The game's side of a count under muggins: checking an action on the open claim, and applying it.

The claim itself (who may act, what each action makes) is its own small state machine,
`cribcore.claims.Claim`, opened by the play (`cribcore.game.play`) or the show (`cribcore.game.show`)
for a declared count. Here the game scores the events a step makes, stops if one of them ends the game,
and once the claim is settled runs what comes after the count (the claim's ``then``).
"""

from __future__ import annotations

from ..actions import Count, Muggins, NotYourTurn, Pass, WrongPhase
from .state import GameState

__all__ = ["check_claim", "settle"]


def check_claim(game: GameState, seat: int, action: Count | Muggins | Pass) -> None:
    """Raise the `IllegalAction` that ``seat``'s ``action`` on the open claim would meet, or return."""
    claim = game._claim
    if claim is None:
        raise WrongPhase("there is no count to declare or call muggins on")
    if seat not in claim.to_act:
        raise NotYourTurn(f"it is {game.players[claim.to_act[0]]}'s turn")
    claim.check(action)


def settle(game: GameState, seat: int, action: Count | Muggins | Pass) -> None:
    """Apply ``seat``'s (checked) claim action: the claim says what it makes; the game scores it, and
    once the claim is settled (and the game goes on) does what comes after the count."""
    game._claims.append(str(action))
    claim = game._claim
    assert claim is not None
    if isinstance(action, Count):
        step = claim.declare(action.points, game.rules, game._deal_index)
    elif isinstance(action, Pass):
        step = claim.pass_(game._deal_index)
    else:
        scored = game.rulebook.muggins(action.points, claim.missed)
        step = claim.call(seat, action.points, scored, game.players[seat], game._deal_index)
    for event, points in step.events:
        if points is None:
            game._emit(event)
        elif game._award(event, points):
            return
    if step.settled:
        game._claim = None
        claim.then()
