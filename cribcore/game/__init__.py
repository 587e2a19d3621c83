"""The engine's parts. `cribcore.engine.Game` coordinates a game; each phase of a deal lives here in a
module of its own, written as functions of the game's state (`state.GameState`):

- `state`: the game's fields, the phases, scoring an event and ending the game, and the hand-overs
  between phases that the coordinator answers;
- `deal`: the deal, the discard and the starter;
- `play`: the play (laying cards, goes, closing a count);
- `show`: the show (the hands, then the crib);
- `claims`: a count under muggins, checked and settled (the claim itself is `cribcore.claims.Claim`);
- `plugin_phases`: the plugins' phases before a deal (an auction, say).

No module here imports another phase's module except `plugin_phases`, which starts the deal when its
phases are done: a phase hands over to the next through the coordinator (`GameState`'s ``_begin_*``
methods), so the order of the phases is written once, in `cribcore.engine`.
"""
