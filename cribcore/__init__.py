"""cribcore: a cribbage engine with exact rules, pluggable variants and per-seat views.

The main entry points are re-exported here: `Card` and the card parser, the scorers, `Game` with its
actions, profiles and records.
"""

from importlib.metadata import PackageNotFoundError, version

from .actions import Action, Discard, IllegalAction, Play, parse_action
from .cards import FULL_DECK, Card, CardParseError, Rank, Suit, format_cards, parse_card, parse_cards
from .engine import Game, Phase
from .profiles import Profile, ProfileError, load_profile
from .records import RecordError, game_record, replay
from .rules import RuleSet
from .scoring import Score, ScoreItem, score_play, score_show, show_total
from .views import SeatView

try:
    __version__ = version("cribcore")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"

__all__ = [
    "FULL_DECK",
    "Action",
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
