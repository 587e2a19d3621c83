"""cribcore: a cribbage engine with exact rules, pluggable variants and per-seat views.

The main entry points are re-exported here: `Card` and the card parser, the scorers, `Game` with its
actions, profiles and records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazyexports import lazy_exports
from .version import VERSION as __version__

if TYPE_CHECKING:
    from .actions import Action, ActionParseError, Discard, IllegalAction, Play, parse_action
    from .cards import FULL_DECK, Card, CardParseError, Rank, Suit, format_cards, parse_card, parse_cards
    from .engine import Game, Phase
    from .profiles import Profile, ProfileError, load_profile
    from .records import RecordError, game_record, replay
    from .rules import RuleSet
    from .scoring import Score, ScoreItem, score_play, score_show, show_total
    from .views import SeatView

# Imported when first used, so that ``import cribcore`` (and so every ``cribbage`` command, even
# ``--version``) starts without loading the engine: Ctrl-C at once then meets the command line's handler.
_HOMES = {
    ".actions": ("Action", "ActionParseError", "Discard", "IllegalAction", "Play", "parse_action"),
    ".cards": (
        "FULL_DECK",
        "Card",
        "CardParseError",
        "Rank",
        "Suit",
        "format_cards",
        "parse_card",
        "parse_cards",
    ),
    ".engine": ("Game", "Phase"),
    ".profiles": ("Profile", "ProfileError", "load_profile"),
    ".records": ("RecordError", "game_record", "replay"),
    ".rules": ("RuleSet",),
    ".scoring": ("Score", "ScoreItem", "score_play", "score_show", "show_total"),
    ".views": ("SeatView",),
}
__getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals())

__all__ = [
    "FULL_DECK",
    "Action",
    "ActionParseError",
    "Card",
    "CardParseError",
    "Discard",
    "Game",
    "IllegalAction",
    "Phase",
    "Play",
    "Profile",
    "ProfileError",
    "Rank",
    "RecordError",
    "RuleSet",
    "Score",
    "ScoreItem",
    "SeatView",
    "Suit",
    "__version__",
    "format_cards",
    "game_record",
    "load_profile",
    "parse_action",
    "parse_card",
    "parse_cards",
    "replay",
    "score_play",
    "score_show",
    "show_total",
]
