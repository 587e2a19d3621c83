"""The ``practice`` command: the play (pegging) on its own, as a beginner's tutorial teaches it.

``practice pegging`` deals four cards each; you lead, and the opponent follows one simple rule, stated
at the start (`RULE`). Every card of both players is scored and explained as it is laid. The cards,
the count, goes, 31 and the last card all come from the engine (a game whose deal is these eight
cards), so practice scores exactly as a real game does.

``practice examples`` steps through three worked sequences of the play (docs/rules.md), one card at a
time; their points come from the same rules authority as a game's
(`cribcore.rulebook.Rulebook.play_items`), plus the last card's point where the sequence ends with
nobody able to play on.

Both take ``--profile``: the play is then scored by that profile's plugins (its deal is still four
cards each, two players).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..actions import Action, Play
from ..cards import FULL_DECK, Card, Rank, parse_card
from ..deals import DealCards, RecordedDeals
from ..engine import Game, Phase
from ..events import Event
from ..i18n import N_, _, ngettext
from ..profiles import Profile
from ..rulebook import Rulebook, rulebook_for, standard_rulebook
from ..rules import RuleSet
from ..scoring import PLAY_LIMIT, ScoreItem
from ..views import SeatView
from .commands import UsageError
from .describe import Voice, number_words, spoken_play
from .errors import report
from .play_cmd import console_for, seed_argument
from .profile_arg import PROFILE_HELP, add_profile_argument, load_profile_option
from .prompt import QuitGame, Reader, ask_action
from .render import Painter, fill, items_lines

__all__ = [
    "EXAMPLES",
    "RULE",
    "Example",
    "RulePlayer",
    "Step",
    "add_practice_parser",
    "example_points",
    "practice_game",
]

YOU, OPPONENT = 0, 1
NAMES = ("You", "Opponent")

RULE = N_(
    "The opponent plays the card that scores the most points now; when no card scores, "
    "its highest card that keeps the count at 31 or less."
)
"""The opponent's rule, in English (translated where it is shown)."""

# Four cards each and nothing laid away (a one-card crib from the pack keeps the engine's crib rule);
# the opponent deals, so you lead.
_PRACTICE_RULES = RuleSet(cards_dealt=4, discards=0, crib_from_pack=1)
_PRACTICE_PROFILE = Profile(name="practice-pegging", rules=_PRACTICE_RULES)


class RulePlayer:
    """The practice opponent (see `RULE`): the most points now, else the highest card that fits."""

    def choose(self, view: SeatView) -> Action:
        pile = [card for _, card in view.pile]

        def value(action: Action) -> tuple[int, int, int]:
            assert isinstance(action, Play)
            points = view.rulebook.play_points([*pile, action.card], seat=view.seat, dealer=view.dealer)
            return points, action.card.value, action.card.rank

        return max(view.legal_actions, key=value)


def practice_profile(profile: Profile | None = None) -> Profile:
    """The practice deal's profile: ``profile``'s plugins (standard by default) with four cards each,
    nothing laid away, two players."""
    if profile is None or profile.plugins == _PRACTICE_PROFILE.plugins:
        return _PRACTICE_PROFILE
    return Profile(name=profile.name, plugins=profile.plugins, options=profile.options, rules=_PRACTICE_RULES)


def practice_game(seed: int, profile: Profile | None = None) -> Game:
    """A practice deal: four cards each from a pack shuffled by ``seed``, you to lead, the play scored
    by ``profile``'s rules (standard by default)."""
    rng = random.Random(f"cribcore/practice/{seed}")
    pack = list(FULL_DECK)
    rng.shuffle(pack)
    yours, theirs, crib = tuple(sorted(pack[:4])), tuple(sorted(pack[4:8])), (pack[8],)
    # Not a jack: his heels would give the opponent 2 before the play starts.
    starter = next(card for card in pack[9:] if card.rank != Rank.JACK)
    deal = DealCards(hands=(yours, theirs), crib_cards=crib, starter=starter)
    return Game(practice_profile(profile), seed=seed, players=NAMES, deals=RecordedDeals([OPPONENT], [deal]))


def _said(seat: int | None, you: str, opponent: str) -> str:
    """The sentence for who acted: whole sentences per person, so that each language conjugates."""
    return you if seat == YOU else opponent


def explain(event: Event, painter: Painter) -> list[Text]:
    """What one event of the play means, as lines: the card, the count, and each score with why."""
    if event.kind == "play" and event.cards:
        count = event.count or 0
        laid = _said(
            event.seat, _("You lay {card}. Count {count}: "), _("The opponent lays {card}. Count {count}: ")
        )
        line = fill(laid, card=painter.card(event.cards[0]), count=count)
        if not event.items:
            return [line.append(_("{count}, nothing scores.").format(count=number_words(count)))]
        line.append(spoken_play(count, event.items), style="bold")
        points = ngettext(" ({points} point).", " ({points} points).", event.points)
        line.append(points.format(points=event.points))
        return [line, *items_lines(event.items, painter, indent=6)]
    if event.kind == "says-go":
        said = _said(
            event.seat,
            _("You say go: no card left fits under {limit} (count {count})."),
            _("The opponent says go: no card left fits under {limit} (count {count})."),
        )
        return [Text(said.format(limit=PLAY_LIMIT, count=event.count))]
    if event.kind == "go":
        if event.note == "last card":
            scored = _said(
                event.seat,
                _("You score 1 for the last card of the play."),
                _("The opponent scores 1 for the last card of the play."),
            )
        else:
            scored = _said(
                event.seat,
                _("You score 1 for the go: nobody else can lay a card on this count."),
                _("The opponent scores 1 for the go: nobody else can lay a card on this count."),
            )
        return [Text(scored, style="bold")]
    if event.kind == "reset":
        return [Text(_("The count starts again at 0."), style="dim")]
    return []


def _table(view: SeatView, painter: Painter) -> Text:
    text = Text(_("  Count {count}").format(count=view.count), style="bold")
    if view.pile:
        text.append("   ").append_text(painter.cards(card for _seat, card in view.pile))
    text.append(_("   · the opponent holds {number}").format(number=view.held[OPPONENT]))
    text.append("\n" + _("  Your cards "))
    playable = {a.card for a in view.legal_actions if isinstance(a, Play)}
    for position, card in enumerate(view.hand, start=1):
        text.append(f"  {position}) ", style="dim")
        text.append_text(painter.card(card) if card in playable else Text(painter.plain(card), "dim"))
    return text


def pegging(seed: int | None, console: Console, profile: Profile | None = None) -> int:
    """Practice rounds until the player stops; each round is one deal of four cards each."""
    if sys.stdin is None:
        raise ValueError(_("practice needs standard input, and it is closed"))
    painter = Painter.for_console(console)
    reader = Reader(console, interactive=sys.stdin.isatty())
    round_seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    console.print(Text(_("Practice the play: four cards each, you lead."), style="bold"))
    console.print(Text(_(RULE)))
    console.print(Text(_("Lay any card that keeps the count at 31 or less. Type help for more."), "dim"))
    try:
        while True:
            _round(practice_game(round_seed, profile), reader, painter, console)
            again_line = _("(These cards again: cribbage practice pegging --seed {seed})").format(
                seed=round_seed
            )
            console.print(Text(again_line, "dim"))
            round_seed += 1
            try:
                again = reader.confirm(_("Another round?"))
            except QuitGame:  # input ended after a whole round: nothing was cut short
                return 0
            if not again:
                return 0
    except QuitGame as stop:
        if stop.code:
            report(_("{reason}; practice stopped").format(reason=stop.reason))
        return stop.code


def _round(game: Game, reader: Reader, painter: Painter, console: Console) -> None:
    opponent = RulePlayer()
    pegged = [0, 0]
    seen = len(game.view(YOU).events)
    console.print()
    console.print(Rule(Text(_("A new round"), style="bold"), align="left"))
    while True:
        events = game.view(YOU).new_events(seen)
        seen += len(events)
        for number, event in enumerate(events):
            if event.kind in ("hand", "crib"):
                break
            following = events[number + 1] if number + 1 < len(events) else None
            if event.kind == "reset" and following is not None and following.kind == "hand":
                continue  # the play is over: no count starts again
            if event.scored and event.seat is not None and event.kind in ("play", "go"):
                pegged[event.seat] += event.points
            for line in explain(event, painter):
                console.print(line)
        if game.phase is not Phase.PLAY or not game.to_act:
            break
        seat = game.to_act[0]
        view = game.view(seat)
        if seat == OPPONENT:
            action = opponent.choose(view)
        else:
            console.print(_table(view, painter))
            voice = Voice.for_game(game.players, game.rules, you=YOU)
            action = ask_action(reader, view, voice, painter, lambda a: game.check(YOU, a))
        game.apply(seat, action)
    held = game.deal_logs()[0].hands[OPPONENT]
    console.print(fill(_("The opponent held {cards}."), cards=painter.cards(held)))
    pegged_line = _("You pegged {you}, the opponent {opponent}.").format(
        you=pegged[YOU], opponent=pegged[OPPONENT]
    )
    console.print(Text(pegged_line, style="bold"))


# ------------------------------------------------------------------------------------ the examples


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a worked sequence: who acts and the card laid (``None``: says go)."""

    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class Example:
    """A worked sequence: its title, what it shows, its steps, and whether it ends the play (so the
    final card scores the last card's point unless it made 31)."""

    title: str
    lesson: str
    steps: tuple[Step, ...]
    ends_play: bool = True


def _steps(text: str) -> tuple[Step, ...]:
    steps = []
    for token in text.split():
        who, _sep, card = token.partition(":")
        seat = YOU if who == "you" else OPPONENT
        steps.append(Step(seat, None if card == "go" else parse_card(card)))
    return tuple(steps)


EXAMPLES = (
    Example(
        N_("Fifteen, then a pair"),
        N_(
            "The eight takes the count to 15 and scores 2. Pairing it at once scores 2 more, and the last "
            "card 1. Rank matters here, not suit."
        ),
        _steps("you:7S them:8D you:8H"),
    ),
    Example(
        N_("A run in any order"),
        N_(
            "The five completes 4-6-5 as a run of three, worth 3, and takes the count to 15 for 2 more: one "
            "card, 5 points, plus 1 for the last card."
        ),
        _steps("you:4C them:6D you:5H"),
    ),
    Example(
        N_("Go, thirty-one and the reset"),
        N_(
            "At 29 the opponent has nothing that fits under 31 and says go. You do: the two lands exactly "
            "on 31 for 2, and a 31 closes the count by itself, so there is no point for the go. The count "
            "goes back to 0. The last card of the play scores 1."
        ),
        _steps("you:KC them:9D you:TH them:go you:2S them:7C you:6S"),
    ),
)
"""Three worked sequences of the play, in the order a tutorial gives them."""


def example_points(
    example: Example, rulebook: Rulebook | None = None
) -> list[tuple[Step, int, tuple[ScoreItem, ...], int]]:
    """Each step with the count after it, the items its card scores under ``rulebook`` (standard by
    default), and the last card's point (1 for the final card of a sequence that ends the play,
    unless it made 31)."""
    book = rulebook if rulebook is not None else standard_rulebook()
    out: list[tuple[Step, int, tuple[ScoreItem, ...], int]] = []
    pile: list[Card] = []
    for number, step in enumerate(example.steps):
        if step.card is None:
            out.append((step, sum(c.value for c in pile), (), 0))
            continue
        pile.append(step.card)
        count = sum(card.value for card in pile)
        items = book.play_items(pile, seat=step.seat, dealer=OPPONENT)
        final = number == len(example.steps) - 1
        last = 1 if final and example.ends_play and count != PLAY_LIMIT else 0
        out.append((step, count, items, last))
        if count == PLAY_LIMIT:
            pile = []
    return out


def examples(console: Console, rulebook: Rulebook | None = None) -> int:
    """Step through the worked sequences; Enter lays the next card (when input is a terminal)."""
    painter = Painter.for_console(console)
    interactive = sys.stdin is not None and sys.stdin.isatty()
    reader = Reader(console, interactive=True) if interactive else None
    try:
        for number, example in enumerate(EXAMPLES, start=1):
            console.print()
            console.print(
                Rule(
                    Text(
                        _("Example {number} of {total}: {title}").format(
                            number=number, total=len(EXAMPLES), title=_(example.title)
                        ),
                        "bold",
                    ),
                    align="left",
                )
            )
            console.print(Text(_(example.lesson)))
            for step, count, items, last in example_points(example, rulebook):
                if reader is not None:
                    reader.pause(_("  Enter for the next card (q to stop) "))
                console.print(_example_line(step, count, items, last, painter))
                for item_line in items_lines(items, painter, indent=6):
                    console.print(item_line)
                if count == PLAY_LIMIT:
                    console.print(Text(_("The count starts again at 0."), style="dim"))
    except QuitGame:
        return 0
    console.print()
    console.print(Text(_("Now try it yourself: cribbage practice pegging"), style="bold"))
    return 0


def _example_line(step: Step, count: int, items: Sequence[ScoreItem], last: int, painter: Painter) -> Text:
    if step.card is None:
        if step.seat == YOU:
            return Text(_("You say go. Count {count}.").format(count=count))
        return Text(_("The opponent says go. Count {count}.").format(count=count))
    if step.seat == YOU:
        line = fill(_("You lay {card}. Count {count}"), card=painter.card(step.card), count=count)
    else:
        line = fill(_("The opponent lays {card}. Count {count}"), card=painter.card(step.card), count=count)
    points = sum(item.points for item in items)
    if items:
        line.append(": ").append(spoken_play(count, items), style="bold")
    if last:
        line.append(_(", and 1 for the last card") if items else _(": 1 for the last card"), style="bold")
    total = points + last
    if total:
        line.append(" " + ngettext("({total} point)", "({total} points)", total).format(total=total))
    return line.append(".")


# ------------------------------------------------------------------------------------ the command


def add_practice_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``practice`` (``pegging``, ``examples``) to the ``cribbage`` parser."""
    parser = commands.add_parser(
        "practice",
        help=_("practise the play (pegging) against a simple opponent, or step through examples"),
        description=_(
            "Practise the play: 'pegging' deals four cards each, you lead, and every card is "
            "scored and explained; 'examples' steps through three worked sequences."
        ),
    )
    sub = parser.add_subparsers(dest="practice_command", metavar="WHAT", title=_("what to practise"))

    def choose(args: argparse.Namespace, console: Console) -> int:
        # Not argparse's "the following arguments are required: WHAT": say the choices, in the language.
        raise UsageError(
            _("choose what to practise: {choices}").format(choices=", ".join(sub.choices)), "practice"
        )

    parser.set_defaults(handler=choose)
    peg = sub.add_parser("pegging", help=_("four cards each against a simple opponent, you lead"))
    peg.add_argument("--seed", type=seed_argument, metavar="N", help=_("the same seed deals the same cards"))
    peg.add_argument("--ascii", action="store_true", help=_("plain ASCII: cards as 5H TD"))
    add_profile_argument(peg, help=_("{profile}: how the play scores").format(profile=_(PROFILE_HELP)))
    peg.set_defaults(handler=_pegging)
    ex = sub.add_parser("examples", help=_("three worked sequences, one card at a time"))
    ex.add_argument("--ascii", action="store_true", help=_("plain ASCII: cards as 5H TD"))
    add_profile_argument(ex, help=_("{profile}: how the play scores").format(profile=_(PROFILE_HELP)))
    ex.set_defaults(handler=_examples)
    from .practice_discards import add_discards_parser

    add_discards_parser(sub)


def _pegging(args: argparse.Namespace, console: Console) -> int:
    profile = load_profile_option(args.profile, "practice pegging")
    if rulebook_for(practice_profile(profile)).declared("play"):
        raise UsageError(
            f"--profile: {profile.name!r} has players declare their own counts; practice scores "
            "every card for you, so choose a profile without muggins",
            "practice pegging",
        )
    return pegging(args.seed, console_for(args, console), profile)


def _examples(args: argparse.Namespace, console: Console) -> int:
    book = rulebook_for(load_profile_option(args.profile, "practice examples"))
    return examples(console_for(args, console), book)
