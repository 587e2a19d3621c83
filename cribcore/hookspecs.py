"""Every hook a cribcore plugin may implement, in one place.

The engine calls each hook with keyword arguments only, so a hook may gain arguments in later versions
without breaking plugins: an implementation names just the arguments it uses. Arguments are immutable
values (`Card`, tuples, the frozen `RuleSet`).

The standard rules (docs/rules.md) are themselves the built-in plugin ``standard``, loaded for every game
through the same entry-point group as any other plugin. A variant changes the game by implementing these
hooks: it adds results to a list hook, answers a ``firstresult`` hook before ``standard`` does (with
``tryfirst=True``), or rewrites another plugin's results with a ``wrapper=True`` implementation.

Hooks marked *firstresult* stop at the first implementation that returns something other than ``None``.
For the others, the engine combines every implementation's result as the hook says.

A hook or an argument is retired, never removed at once: for one minor version its spec carries
pluggy's ``warn_on_impl`` or ``warn_on_impl_args``, so a plugin implementing it is warned when it is
registered (docs/plugins.md, "Calling conventions"). Each hook dates from 0.1 unless its docstring says
*New in …* (the version that added it) or *Changed in …* (the version and the arguments it gained).

An implementation that raises, or returns a value that is not of its hook's return type, stops the game
with `cribcore.pluginmanager.PluginError` naming the plugin and the hook (docs/plugins.md, "When a hook
fails").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pluggy

from .cards import Card
from .phases import PhaseState, PhaseStep
from .rules import RuleSet
from .scoring import ScoreItem
from .speech import ScoreKind

PROJECT = "cribcore"
"""The project name of cribcore's hooks and markers in pluggy."""

hookspec = pluggy.HookspecMarker(PROJECT)
"""Marks a hook specification: cribcore's own, the functions of this module."""
hookimpl = pluggy.HookimplMarker(PROJECT)
"""Marks a plugin's implementation of a hook: ``@hookimpl``, or with pluggy's options, such as
``@hookimpl(tryfirst=True)`` or ``@hookimpl(wrapper=True)`` (docs/plugins.md, "Calling conventions")."""

__all__ = ["PROJECT", "hookimpl", "hookspec"]


@hookspec
def cribcore_rules() -> Mapping[str, object] | None:
    """The rule values this variant sets (for example five-card: ``cards_dealt`` 5, ``target`` 61).

    Called once when a profile naming the plugin is loaded, before its rules are validated. Return a
    mapping of `RuleSet` field names to values, or ``None``. Two plugins that set one rule to different
    values cannot be combined (the profile is rejected naming both); a value in the profile's own
    ``[rules]`` table overrides every plugin's.
    """


@hookspec(firstresult=True)
def cribcore_pack(rules: RuleSet) -> Sequence[Card] | None:
    """The cards in play: the pack every deal is shuffled from.

    Called when a profile is loaded (to check that the pack holds every dealt card and the starter, and
    to make its extra cards' text known) and when a game starts. *firstresult*: standard answers the 52
    standard cards (`cribcore.cards.FULL_DECK`, in that order, so the same seed deals the same cards as
    ever). A plugin that adds cards (jokers) answers first (``tryfirst=True``) with the whole pack: distinct
    cards, its extra ones made with `Card.extra` (a text form of its own such as ``X1``, and the rank,
    suit and count value they have wherever no plugin says otherwise). The cut for deal uses the pack's
    standard cards only. How an extra card scores is up to the plugin's scoring hooks.
    """


@hookspec
def cribcore_wild_cards(rules: RuleSet) -> Mapping[Card, Sequence[Card]] | None:
    """The cards that are wild in the show, each with the standard cards it may stand for.

    Called once when a profile's rules authority is built (`cribcore.rulebook.rulebook_for`), before any
    card is counted. Return a mapping from each wild card (a standard card such as the one-eyed jacks
    J♠ and J♥, or one of the pack's extra cards such as a joker) to the standard cards it may stand for
    (`cribcore.cards.FULL_DECK` for any card), or ``None``. The answers of all plugins are merged: a
    card two plugins make wild may stand for any card either allows.

    Every hand and crib holding a wild card, or shown with a wild starter, is then counted as the
    substitution that scores the most under the profile's show hooks (which see the cards stood for,
    never the wild cards), each wild card standing for a card not among the count's other cards; the
    items carry the wild cards with what they stood for (`ScoreItem.wild`, shown as "J♠ as 4♦"). See
    `cribcore.wild`. Wild cards are wild in the show only: the play and his heels see the card itself.

    *New in cribcore 0.2.*
    """


@hookspec
def cribcore_score_kinds() -> Mapping[str, ScoreKind] | None:
    """The words for this plugin's own kinds of score item, by kind (the ``kind`` of its `ScoreItem`).

    Called once when a profile naming the plugin is loaded. Each `ScoreKind` gives a ``label``, the
    item's name where items are listed (``joker turned up 2``), and a ``spoken`` template, how a player
    says it as it scores (``two for the joker``; ``{points}`` and ``{total}``, the item's points and the
    running total, are put in as words). The terminal, the browser and ``cribbage replay`` all use them.
    The mappings of all plugins are merged; a standard kind's words cannot change, and two plugins
    naming one kind differently cannot be combined (the profile is rejected naming the kind). A kind
    without words is named by its kind with dashes as spaces.
    """


@hookspec
def cribcore_check_rules(rules: RuleSet) -> str | None:
    """Check that a profile's rules suit this plugin.

    Called once when a game's plugins are loaded, before any card is dealt.

    Return ``None`` when the rules are acceptable, or a one-line reason they are not (for example
    ``"five-card cribbage needs two seats"``); the profile is then rejected with that reason.
    """


@hookspec
def cribcore_game_start(rules: RuleSet, dealer: int) -> Sequence[tuple[int, ScoreItem]] | None:
    """Points scored before the first deal.

    Called once per game, after the cut for deal has chosen ``dealer`` and before the first cards are
    dealt.

    Return ``(seat, item)`` pairs: each item's points go to that seat's side at once, in the order
    returned, and appear as an event of the item's kind. Results of all plugins are concatenated.
    """


@hookspec
def cribcore_check_discard(
    rules: RuleSet, hand: tuple[Card, ...], cards: tuple[Card, ...], dealer: int, seat: int
) -> str | None:
    """Whether ``seat`` may lay ``cards`` (taken from ``hand``, the cards it was dealt) in the crib.

    Called for each candidate discard when legal discards are listed or a discard is checked. The
    engine has already checked that the cards are held and are the right number.

    Return ``None`` to allow it, or a short reason to forbid it. A discard is legal only when no
    plugin forbids it; a plugin must leave at least one discard legal for every hand.
    """


@hookspec
def cribcore_starter_items(
    rules: RuleSet, starter: Card, seat: int, dealer: int
) -> Sequence[ScoreItem] | None:
    """Points the dealer scores for the starter as it is turned up (standard: his heels, 2 for a jack).

    Called once per deal, after every discard, when the starter is revealed. ``dealer`` is the dealer's
    seat and ``seat`` the seat that scores the items, which is the dealer.

    Return score items for the dealer's side; the items of all plugins are concatenated.

    *Changed in cribcore 0.2:* ``seat`` and ``dealer`` are passed; implementations that do not name them
    keep working.
    """


@hookspec
def cribcore_play_items(
    rules: RuleSet, pile: tuple[Card, ...], seat: int, dealer: int
) -> Sequence[ScoreItem] | None:
    """Points for the card just laid in the play.

    Called after each card is laid, and by computer players and hints weighing a card. ``pile`` holds
    the cards of the current count in the order laid, the new card last; ``seat`` laid it and ``dealer``
    dealt this deal.

    Return score items for the player who laid it (standard: fifteen, pair, run, thirty-one). The items
    of all plugins are concatenated. Go and last-card points are the engine's, not this hook's.

    *Changed in cribcore 0.2:* ``seat`` and ``dealer`` are passed; implementations that do not name them
    keep working.
    """


@hookspec(firstresult=True)
def cribcore_play_continues(rules: RuleSet, cards_left: tuple[int, ...]) -> bool | None:
    """Whether the play goes on to a new count after a count has closed (at 31 or when nobody can lay).

    Called each time a count closes while some player still holds cards; ``cards_left`` is the number
    of cards each seat still holds. Also called once when a game starts, with one card left for each
    seat, so that views can tell players whether the play goes on. *firstresult*: standard answers
    ``True``; five-card cribbage, whose play is one count only, answers ``False`` first, and the cards
    left are not played.
    """


@hookspec
def cribcore_show_items(
    rules: RuleSet, cards: tuple[Card, ...], starter: Card, crib: bool, seat: int, dealer: int
) -> Sequence[ScoreItem] | None:
    """Points for a hand (``crib`` false) or the crib (``crib`` true) in the show, with the starter.

    Called once per hand and once for the crib, in counting order, and by computer players, hints, the
    analyzer and the statistics weighing hands. ``cards`` excludes the starter and is sorted. ``seat`` is
    the seat whose hand it is (the dealer for the crib) and ``dealer`` the seat that dealt; outside a
    game (``cribbage score``, the analyzer) a hand is seat 0's with seat 1 dealing, and a crib seat 0's
    own. The answer must depend only on these arguments: it may be cached.

    Return score items; the items of all plugins are concatenated. A plugin that changes how an existing
    combination scores (for example which flushes count) implements this hook with ``wrapper=True`` and
    rewrites the standard items it receives from ``yield``.

    *Changed in cribcore 0.2:* ``seat`` and ``dealer`` are passed; implementations that do not name them
    keep working.
    """


@hookspec(firstresult=True)
def cribcore_flush_rules(rules: RuleSet) -> tuple[bool, bool] | None:
    """Declare that this plugin's show changes the standard count only in which flushes score:
    ``(hand_flush_needs_starter, crib_flush_needs_starter)``, as `cribcore.scoring.show_items` takes them.

    Called once when a profile's `cribcore.rulebook.Rulebook` is built. *firstresult*: no plugin
    answers by default. When the only show implementation besides standard's belongs to the plugin
    that answers here, the rules authority counts the show from the standard tables with these flush
    rules instead of calling the show hook (the same points, far faster), and ``cribbage stats`` counts
    the profile exactly. The built-in ``hand-flush`` plugin declares its options this way; a plugin of
    your own that rewrites only the flush items may do the same. The declaration must match what the
    plugin's ``cribcore_show_items`` scores.

    *New in cribcore 0.2.*
    """


@hookspec
def cribcore_show_suits_as_standard(rules: RuleSet) -> bool | None:
    """Declare that this plugin's show tells suits apart only as the standard count does: its points
    for a hand (or crib) and starter depend on the suits only through whether the hand's cards are all
    of one suit, whether the starter is of that suit too, and whether the hand holds the jack of the
    starter's suit (flushes and nobs), never on which suit that is. Answer ``True`` to declare it.

    Called once when a profile's `cribcore.rulebook.Rulebook` is built. When every plugin with a
    ``cribcore_show_items`` implementation besides standard's declares it (and no card is wild and the
    pack is the standard 52), the rules authority keeps show totals by those classes, so that every hand
    of the same ranks, starter rank and class is counted by the hooks once (the computer players weigh
    hundreds of thousands of hands in a game). The declaration must match what the plugin's
    ``cribcore_show_items`` scores: a plugin that counts a suit of its own, or three cards of a suit,
    must not make it.

    *New in cribcore 0.2.*
    """


@hookspec(firstresult=True)
def cribcore_skunk_lines(rules: RuleSet) -> tuple[int, int] | None:
    """The single and double skunk lines: a losing side below the first is skunked, below the second
    double skunked; 0 means never.

    Called once when a profile's `cribcore.rulebook.Rulebook` is built; ``cribbage simulate`` counts
    skunks by these lines (`cribcore.rulebook.Rulebook.skunk_lines`). *firstresult*:
    standard answers the usual lines for the target (target - 30 and target - 60, that is 91 and 61 at
    121), so that skunks are reported under every profile; the ``skunk`` plugin answers the lines it
    awards game points by, and a plugin of your own that awards a lopsided win more game points
    (`cribcore_game_points`) answers its own lines first (``tryfirst=True``).

    *New in cribcore 0.2.*
    """


@hookspec(firstresult=True)
def cribcore_declared(rules: RuleSet, kind: str) -> bool | None:
    """Whether players declare their own count of this kind of score (muggins), instead of the
    engine scoring it.

    Called whenever points of ``kind`` (``"play"``: a card laid in the play, its go or last-card point
    included; ``"hand"``; ``"crib"``) are about to be scored. *firstresult*: standard answers ``False``.
    When ``True``, the seat declares a number (an overcount is corrected to the true points; an
    undercount stands) and each opposing seat in turn may call muggins (see `cribcore_muggins`).
    """


@hookspec(firstresult=True)
def cribcore_muggins(rules: RuleSet, claimed: int, missed: int) -> tuple[int, int] | None:
    """Settle a call of muggins: ``claimed`` points called for, ``missed`` points really missed.

    Called once per call. *firstresult*: return ``(to_caller, to_counter)``, the points the calling
    side and the side whose count was challenged score. Standard answers ``(min(claimed, missed), 0)``;
    the muggins variant gives a false call's points to the counter when its penalty option is on.
    """


@hookspec(firstresult=True)
def cribcore_counting_order(rules: RuleSet, dealer: int) -> Sequence[int] | None:
    """The seats whose hands are counted in the show, in counting order; the crib is always counted last.

    Called once per deal, when the show begins. *firstresult*: standard answers the seats from the
    dealer's left round to the dealer.
    """


@hookspec(firstresult=True)
def cribcore_winner(rules: RuleSet, scores: tuple[int, ...], side: int) -> int | None:
    """Whether the game is over after ``side`` scored, and which side has won.

    Called after every award of points. ``scores`` are the totals per side after the award. Also
    called once when a game starts, with side 0 at the target and the others at 0, so that views can
    tell players whether reaching the target wins (`SeatView.target_wins`). *firstresult*: return the
    winning side when the game ends now, or ``None`` to play on; standard makes ``side`` the winner as
    soon as its score reaches its own target, ``rules.target_of(side)``. A plugin that decides the
    game differently (for example lowball, where reaching the target loses) implements this hook with
    ``wrapper=True`` and returns its own answer, ``None`` included, in place of the one it receives.
    """


@hookspec(firstresult=True)
def cribcore_game_points(rules: RuleSet, scores: tuple[int, ...], winner: int) -> int | None:
    """How many game points the winning side earns for this game (for match play).

    Called once, when the game is over; ``scores`` are the final totals per side and ``winner`` the
    winning side. *firstresult*: standard answers 1; the skunk variant answers 2 or 3 first when the
    loser is far enough behind.
    """


@hookspec
def cribcore_phase_before_deal(
    rules: RuleSet, deal: int, dealer: int, scores: tuple[int, ...]
) -> tuple[str, int] | None:
    """Open a plugin phase before a deal: a step in which seats decide with the plugin's own actions
    (see `cribcore.phases`).

    Called before every deal after the first (``deal`` counts from 0, so from 1; the first dealer is
    always the cut's), before any card is dealt. ``dealer`` is the seat the usual rotation makes dealer
    and ``scores`` the points per side.

    Return ``(name, seat)`` to open the phase ``name`` with ``seat`` to act first, or ``None``. ``name``
    must be unique to the plugin: the other phase hooks are asked about it. The phases of all plugins run
    one after another, in the order returned; the deal starts when the last is over.
    """


@hookspec(firstresult=True)
def cribcore_phase_actions(rules: RuleSet, state: PhaseState) -> Sequence[str] | None:
    """The legal actions of ``state.to_act`` in the plugin phase ``state.name``, as their text forms.

    Called whenever a phase's seat to act is asked what it may do (every view and every action checked).
    *firstresult*: the plugin that opened ``state.name`` answers with a non-empty list of canonical
    texts (``["bid 0", "bid 1", "pass"]``), in the order a list of choices should show them; every other
    plugin answers ``None``. An action is legal exactly when its text is in the list.
    """


@hookspec(firstresult=True)
def cribcore_phase_apply(rules: RuleSet, state: PhaseState, seat: int, text: str) -> PhaseStep | None:
    """Apply the legal action ``text`` of ``seat`` (who is ``state.to_act``) in the phase ``state.name``.

    Called once per action, after the engine has checked that ``text`` is one of the legal actions (a
    refused action never reaches the plugin and changes nothing). ``state.actions`` holds the earlier
    actions of the phase, not this one. *firstresult*: the plugin that opened the phase returns a
    `PhaseStep`: the next seat to act or ``None`` when the phase is over, the dealer it chooses for the
    coming deal, and points awarded (a negative award takes points away; no side goes below 0). The
    answer must depend only on the arguments, so that records replay.
    """


@hookspec(firstresult=True)
def cribcore_phase_choose(
    rules: RuleSet, state: PhaseState, seat: int, level: str, legal: tuple[str, ...]
) -> str | None:
    """How a computer player of ``level`` decides in the phase ``state.name``: one text of ``legal``.

    Called by the computer players when ``seat`` is to act in a plugin phase. ``level`` is ``"easy"``,
    ``"medium"``, ``"hard"`` or another player's name (``"simple"``); ``legal`` are the texts of
    `cribcore_phase_actions`. *firstresult*: the plugin that opened the phase returns one of ``legal``;
    when nobody answers (or the answer is not legal) the player takes the first legal action.
    """


# Every hook is public: its name, arguments and return type are the contract with plugins.
__all__ += [name for name in tuple(globals()) if name.startswith("cribcore_")]
