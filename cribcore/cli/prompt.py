"""Reading a human's decisions: lines from the terminal, the quit confirmation, and turning what they
type (card texts, positions in the hand, commands) into an action the engine accepts.

Contract: bad input never raises out of here and never changes the game. Every problem is shown as one
short line and the same prompt is asked again. The only ways out are a legal action, or `QuitGame`
(the human confirmed quitting, typed ``quit``, or input ended).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.console import Console, RenderableType
from rich.text import Text

from ..actions import Action, Count, Discard, Muggins, Pass, Play, PluginAction, parse_action
from ..cards import Card, CardParseError, parse_card
from ..cards_es import from_spanish
from ..i18n import N_, _, current_language, ngettext
from ..players import hint
from ..players.muggins import declared_so_far
from ..speech_messages import say
from ..views import SeatView
from .describe import Voice, number_words
from .errors import shorten
from .render import Painter

if TYPE_CHECKING:  # a hint is worked out only when asked for
    from ..players.hints import Hint

__all__ = [
    "ASKERS",
    "HELP",
    "Ask",
    "NewGame",
    "QuitGame",
    "Reader",
    "ask_action",
    "command_word",
    "describe_action",
    "is_yes",
    "parse_picks",
    "prompt_help",
]

HELP = N_("""\
Name a card by rank and suit, in any case: 5h, JC, 10s,
TS, q♥. Or by its position in your hand: 1 is the first
card shown, 2 the next, and so on.
  Discard: choose the cards for the crib,
           e.g.  5h jc   or   1 4
  Play:    choose one card, e.g.  7d   or   3.
           Cards that would pass 31 are shown faint;
           when none fits, the game says go for you.""")
"""The prompt's help, in English (`prompt_help` translates it; the catalog holds it)."""

COMMANDS_HELP = N_("""\
Commands: hint or ? (what the computer would do, and why),
board (the pegging board), new (start a new game),
quit or q. Ctrl-C or Ctrl-D also offers to quit.""")

COMMANDS_HELP_NO_HINTS = N_("""\
Commands: board (the pegging board), new (start a new
game), quit or q. Ctrl-C or Ctrl-D also offers to quit.
No hints in a game with a friend.""")
"""The commands where hints are refused (a game with a friend): ``hint`` is not offered."""

MUGGINS_HELP = N_("""\
Muggins (a profile that plays it): you count your own
hand, crib and each card you lay; type the points, 0 if
nothing. A count too low stands: after another player's
count, type the points they missed to take them
(muggins), or press Enter to let the count stand. A
false call costs you the points you called.""")


def prompt_help(*, muggins: bool = False, hints: bool = True) -> str:
    """The prompt's help in the current language; with ``muggins``, how counting and calling work;
    without ``hints`` (a game with a friend), the ``hint`` command is not offered."""
    text = f"{_(HELP)}\n{_(COMMANDS_HELP if hints else COMMANDS_HELP_NO_HINTS)}"
    return f"{text}\n{_(MUGGINS_HELP)}" if muggins else text


COMMAND_WORDS = {"ayuda": "help", "pista": "hint", "tablero": "board", "nueva": "new", "salir": "quit"}
"""The Spanish word of each command typed at a prompt (the Spanish help lists them); the English
words are always understood too."""


def command_word(typed: str) -> str:
    """What ``typed`` (already lower case) means as a command: its English word."""
    return COMMAND_WORDS.get(typed, typed)


_QUIT_WORDS = frozenset({"q", "quit", "exit"})
_HELP_WORDS = frozenset({"help", "h"})
_HINT_WORDS = frozenset({"hint", "?"})
_YES = frozenset({"y", "yes"})
_SPANISH_YES = frozenset({"s", "si", "sí"})


def is_yes(answer: str) -> bool:
    """Whether ``answer`` means yes: ``y``/``yes``, and in Spanish also ``s``/``sí``."""
    word = answer.strip().lower()
    return word in _YES or (current_language() == "es" and word in _SPANISH_YES)


class QuitGame(Exception):
    """The game stops before its end: the human chose to quit (``code`` 0) or input ended (1)."""

    def __init__(self, reason: str, code: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class NewGame(Exception):
    """The human confirmed that this game is to be dropped and a new one started."""


class Reader:
    """Reads prompt answers from standard input.

    Ctrl-C or Ctrl-D at a prompt asks "Quit this game? [y/N]": ``y`` raises `QuitGame`, anything else
    returns to the prompt; Ctrl-C or Ctrl-D at that question also quits. When input is not a terminal
    (``interactive`` false), end of input raises `QuitGame` with code 1 at once, since no one is there
    to answer.
    """

    def __init__(self, console: Console, *, interactive: bool) -> None:
        self.console = console
        self.interactive = interactive

    def line(self, prompt: str) -> str:
        """One answer, stripped (possibly empty)."""
        while True:
            try:
                return self.console.input(Text(prompt, style="bold")).strip()
            except EOFError:
                self.console.print()
                if not self.interactive:
                    raise QuitGame(_("input ended before the game did"), code=1) from None
                self._confirm_quit()
            except KeyboardInterrupt:
                self.console.print()
                self._confirm_quit()

    def _confirm_quit(self) -> None:
        """Ask whether to quit; raise `QuitGame` on yes (or on a second Ctrl-C/Ctrl-D), else return."""
        try:
            answer = self.console.input(Text(_("Quit this game? [y/N] "), style="bold"))
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise QuitGame(_("you quit")) from None
        if is_yes(answer):
            raise QuitGame(_("you quit"))

    def confirm(self, question: str) -> bool:
        """Ask a yes/no ``question`` (no unless answered ``y``); Ctrl-C or Ctrl-D answers no, and end
        of piped input quits as at any prompt."""
        try:
            answer = self.console.input(Text(_("{question} [y/N] ").format(question=question), style="bold"))
        except EOFError:
            self.console.print()
            if not self.interactive:
                raise QuitGame(_("input ended before the game did"), code=1) from None
            return False
        except KeyboardInterrupt:
            self.console.print()
            return False
        return is_yes(answer)

    def problem(self, message: str) -> None:
        """Show one short line about input that was not accepted."""
        self.console.print(Text(f"  {message}", style="yellow"))

    def show(self, renderable: RenderableType) -> None:
        self.console.print(renderable)

    def pause(
        self,
        prompt: str | None = None,
        commands: Mapping[str, Callable[[], None]] | None = None,
    ) -> None:
        """Wait for Enter; ``q``/``quit`` quits; a word in ``commands`` runs it and asks again."""
        while True:
            word = command_word(self.line(prompt or _("Press Enter for the next deal (q to quit) ")).lower())
            if word in _QUIT_WORDS:
                raise QuitGame(_("you quit"))
            if commands and word in commands:
                commands[word]()
                continue
            return


_NOT_A_CARD = N_("{token} is not a card: type a card like 5h or 10s, or a position 1-{size} (help for more)")


def parse_picks(text: str, hand: Sequence[Card], wanted: int) -> tuple[Card, ...]:
    """The cards named by ``text``: card texts (``5h``, ``10S``, ``j♣``) and/or positions 1..len(hand)
    in ``hand``. When several cards are wanted, a run of position digits such as ``14`` means 1 and 4.

    Raises `ValueError` with a short message for a token that is neither; whether the cards are held
    and legal is the engine's question, not this function's.
    """
    picks: list[Card] = []
    size = len(hand)
    for token in from_spanish(text).replace(",", " ").split():
        if token.isdigit():
            number = int(token)
            if 1 <= number <= size:
                picks.append(hand[number - 1])
            elif wanted > 1 and len(token) == wanted and all("1" <= d <= str(size) for d in token):
                picks.extend(hand[int(d) - 1] for d in token)
            else:
                raise ValueError(_no_position(token, hand))
            continue
        try:
            picks.append(parse_card(token))
        except CardParseError:
            raise ValueError(_not_a_card(token, text, size)) from None
    return tuple(picks)


_SUIT_WORDS_ES = {"S": "picas", "H": "corazones", "D": "diamantes", "C": "tréboles"}
_NOT_A_SUIT = re.compile(
    r"(?<![\w])(?:10|[2-9]|[atjqkr]|as|jota|sota|reina|dama|rey)\s+de\s+(\S+)", re.IGNORECASE
)


def _typed_form(card: Card) -> str:
    """How to type ``card`` in the current language: ``6s``, or in Spanish ``6picas``."""
    rank = str(card)[0].lower() if card.rank != 10 else "10"
    if current_language() == "es":
        return f"{rank}{_SUIT_WORDS_ES[str(card)[-1]]}"
    return f"{rank}{str(card)[-1].lower()}"


def _no_position(token: str, hand: Sequence[Card]) -> str:
    """Why the number ``token`` names no card: positions stop at the hand's size; when it is the rank
    of cards held (a ``6`` typed for the 6 in the hand), which card was probably meant."""
    size = len(hand)
    said = _("there is no card {token} in your hand: positions go from 1 to {size}").format(
        token=token, size=size
    )
    held = [card for card in hand if card.rank == int(token)]
    if not held:
        return said
    return _("{said}; for the {rank} you hold, type {cards}").format(
        said=said, rank=token, cards=_either([_typed_form(card) for card in held])
    )


def _not_a_card(token: str, text: str, size: int) -> str:
    """Why ``token`` of ``text`` is not a card; in ``2 de copas`` it is the suit that is wrong."""
    for match in _NOT_A_SUIT.finditer(text):
        word = match.group(1)
        if word.lower() not in ("picas", "corazones", "diamantes", "tréboles", "treboles"):
            return _(
                "{word} is not a suit: write picas, corazones, diamantes or tréboles, as in 7 de picas"
            ).format(word=repr(shorten(word)))
    return _(_NOT_A_CARD).format(token=repr(shorten(token)), size=size)


# ----------------------------------------------------------------------------- asking for an action


@dataclass(frozen=True, slots=True)
class Ask:
    """How to ask for one kind of action: the prompt, what to type (for an empty answer, with an
    example), and how to read an answer (raising `ValueError` with a short reason)."""

    prompt: str
    what: str
    example: str
    parse: Callable[[str], Action]
    empty: str | None = None
    """What an empty answer means (read as this text), or ``None`` when it must be typed."""


AskFactory = Callable[[SeatView, Voice, Painter], Ask]


def _ask_discard(view: SeatView, voice: Voice, painter: Painter) -> Ask:
    wanted = view.rules.discards
    what = ngettext("{count} card", "{count} cards", wanted).format(
        count=number_words(wanted) if wanted > 2 else wanted
    )
    example = _("5h jc' or positions '1 4") if wanted == 2 else _("5h' or a position like '4")

    def parse(text: str) -> Action:
        return Discard(parse_picks(text, view.hand, wanted))

    prompt = voice.tell(
        view.dealer, _("Choose {what} for your crib: "), _("Choose {what} for {name}'s crib: "), what=what
    )
    return Ask(prompt, what, example, parse)


def _ask_play(view: SeatView, voice: Voice, painter: Painter) -> Ask:
    def parse(text: str) -> Action:
        if text.lower() == "go":
            fits = _either([painter.plain(a.card) for a in view.legal_actions if isinstance(a, Play)])
            raise ValueError(
                _("you can still play {cards}; the game says go for you when no card fits").format(cards=fits)
            )
        picks = parse_picks(text, view.hand, 1)
        if len(picks) != 1:
            raise ValueError(
                _("play one card at a time, not {number}").format(number=number_words(len(picks)))
            )
        return Play(picks[0])

    return Ask(
        _("Play a card (count {count}): ").format(count=view.count),
        _("a card"),
        _("7d' or a position like '2"),
        parse,
    )


def _ask_other(view: SeatView, voice: Voice, painter: Painter) -> Ask:
    """Any other kind of action (a variant's): typed in its text form, as `parse_action` reads it."""
    shown = [str(action) for action in view.legal_actions[:3]]
    more = ", …" if len(view.legal_actions) > 3 else ""
    return Ask(
        _("Your move ({moves}): ").format(moves=", ".join(shown) + more), _("a move"), shown[0], parse_action
    )


def _ask_plugin(view: SeatView, voice: Voice, painter: Painter) -> Ask:
    """A plugin phase's decision (an auction's bid): its legal actions shown and typed in their text form
    (a bare number stands for the one legal action ending in it, so ``3`` is ``bid 3``)."""
    legal = [action for action in view.legal_actions if isinstance(action, PluginAction)]
    name = legal[0].phase if legal else "phase"
    texts = [action.text for action in legal]

    def parse(text: str) -> Action:
        typed = " ".join(text.lower().split())
        for action in legal:
            words = action.text.lower().split()
            if typed == " ".join(words) or (typed.isdigit() and words[-1] == typed):
                return action
        raise ValueError(_("type one of: {actions}").format(actions=", ".join(texts)))

    shown = ", ".join(texts) if len(texts) <= 8 else f"{', '.join(texts[:7])}, …, {texts[-1]}"
    return Ask(
        f"{name.capitalize()} ({shown}): ",
        _("one of {actions}").format(actions=", ".join(texts)),
        texts[0],
        parse,
    )


def _number(text: str, verb: str) -> int:
    words = text.lower().split()
    if len(words) == 2 and words[0] == verb:
        words = words[1:]
    if len(words) != 1 or not words[0].isdigit():
        raise ValueError(_("type a number of points, like 6 (or '{verb} 6')").format(verb=verb))
    return int(words[0])


def _ask_count(view: SeatView, voice: Voice, painter: Painter) -> Ask:
    """Muggins: the human declares their own count; an undercount stands and may be taken."""
    if view.phase == "play" and view.pile:
        # The go or the last card's point is the laid card's too: a newcomer who leaves it out is
        # taken for it by muggins, so the question says so every time.
        prompt = _("Your count for the {card} you laid, with a go or last card (0 if nothing): ").format(
            card=painter.plain(view.pile[-1][1])
        )
    elif view.counting is not None and view.seat == view.dealer and _counting_crib(view):
        prompt = _("Your count for your crib (0 if nothing): ")
    else:
        prompt = _("Your count for your hand (0 if nothing): ")

    def parse(text: str) -> Action:
        return Count(_number(text, "count"))

    return Ask(prompt, _("your count"), "6", parse)


def _counting_crib(view: SeatView) -> bool:
    last = next((e for e in reversed(view.events) if e.kind in ("hand", "crib")), None)
    return last is not None and last.kind == "crib"


def _ask_call(view: SeatView, voice: Voice, painter: Painter) -> Ask:
    """Muggins: after another side's count, call for points it missed, or let it stand."""
    counted = declared_so_far(view)

    def parse(text: str) -> Action:
        if text.lower() in ("pass", "p", "no", "n"):
            return Pass()
        return Muggins(_number(text, "muggins"))

    prompt = voice.tell(
        view.counting,
        _("You counted {counted}. Muggins? points missed, or Enter to let it stand: "),
        _("{name} counted {counted}. Muggins? points missed, or Enter to let it stand: "),
        counted=counted,
    )
    return Ask(prompt, _("the points missed"), "2", parse, empty="pass")


ASKERS: dict[type, AskFactory] = {
    Discard: _ask_discard,
    Play: _ask_play,
    Count: _ask_count,
    Pass: _ask_call,
    PluginAction: _ask_plugin,
}
"""How to ask for each kind of action, by the type of the first legal action; a kind not here is
asked for by its text form."""


def describe_action(action: Action, painter: Painter) -> str:
    """An action in words with cards drawn by ``painter``: ``lay away 5♥ J♣``, ``play 7♦``."""
    if isinstance(action, Discard):
        return _("lay away {cards}").format(cards=" ".join(painter.plain(c) for c in action.cards))
    if isinstance(action, Play):
        return _("play {card}").format(card=painter.plain(action.card))
    if isinstance(action, Count):
        return _("count {points}").format(points=action.points)
    if isinstance(action, Muggins):
        return _("call muggins for {points}").format(points=action.points)
    if isinstance(action, PluginAction):
        return action.text
    return _("let the count stand")


def ask_action(
    reader: Reader,
    view: SeatView,
    voice: Voice,
    painter: Painter,
    check: Callable[[Action], None],
    *,
    commands: Mapping[str, Callable[[], None]] | None = None,
    help_text: str | None = None,
    hints: bool = True,
    held_here: bool = True,
    hinter: Callable[[SeatView], Hint] | None = None,
) -> Action:
    """Ask the human at ``view.seat`` for one of ``view.legal_actions`` and return it.

    ``check`` is the engine's validator (`Game.check` for this seat): its `IllegalAction` message is
    what the human reads when a choice is not allowed (not held, past 31, wrong number of cards).
    ``commands`` are further words the prompt answers (``board``, ``new``); each runs and the prompt
    is asked again, unless it raises (`NewGame`, `QuitGame`). Without ``hints`` (a game with a friend)
    asking for a hint says there are none. With ``held_here`` a card not in the hand is refused here,
    named as the screen draws cards; without (a table kept by a server), the server says so.
    ``hinter`` gives a hint (a table kept by a server asks the server, which knows its house rules);
    by default it is worked out here. A hinter that raises means there is none.
    """
    ask = ASKERS.get(type(view.legal_actions[0]), _ask_other)(view, voice, painter)
    while True:
        text = reader.line(ask.prompt) or (ask.empty or "")
        word = command_word(text.lower())
        if not text:
            reader.problem(
                _("Type {what}, e.g. '{example}' (help for more).").format(what=ask.what, example=ask.example)
            )
            continue
        if word in _HELP_WORDS:
            reader.show(Text(help_text or prompt_help(), style="dim"))
            continue
        if word in _QUIT_WORDS:
            raise QuitGame(_("you quit"))
        if word in _HINT_WORDS:
            if not hints:
                reader.problem(
                    _("No hints in a game with a friend: a hint would be the computer playing for you.")
                )
                continue
            reader.show(Text(f"  {_hint(view, painter, hinter)}", style="dim"))
            continue
        if commands and word in commands:
            commands[word]()
            continue
        try:
            action = ask.parse(text)
            missing = _not_held(action, view.hand) if held_here else []
            if missing:
                # Said here rather than by the engine so that the cards look as they do on the screen.
                shown = " ".join(painter.plain(card) for card in missing)
                raise ValueError(_("You do not hold {cards}.").format(cards=shown))
            check(action)
        except ValueError as exc:  # IllegalAction is a ValueError: the engine's reason, in our language
            reader.problem(_sentence(say(str(exc), card=painter.plain)))
            continue
        return action


def _not_held(action: Action, hand: Sequence[Card]) -> list[Card]:
    """The cards a discard or a play names that are not in ``hand``."""
    if isinstance(action, Discard):
        return [card for card in action.cards if card not in hand]
    if isinstance(action, Play) and action.card not in hand:
        return [action.card]
    return []


_CARD_TEXT = re.compile(r"\b(?:[2-9TJQKA])[CDHS]\b")


def _drawn(text: str, painter: Painter) -> str:
    """``text`` with every card in the canonical form (``4C``) drawn as the screen draws cards."""
    return _CARD_TEXT.sub(lambda match: painter.plain(parse_card(match.group(0))), text)


def _either(words: Sequence[str]) -> str:
    if len(words) == 1:
        return words[0]
    return _("{some} or {last}").format(some=", ".join(words[:-1]), last=words[-1])


def _hint(view: SeatView, painter: Painter, hinter: Callable[[SeatView], Hint] | None = None) -> str:
    if hinter is None and view.claim_stage is not None and view.claim_points is None:
        # A view from a server does not carry the true count (a browser would show it to the player).
        return _("No hint for a count here: count the cards yourself.")
    try:
        suggestion = (hinter or hint)(view)
    except Exception:  # a hint is an extra: its failure must never end the game
        return _("No hint is available here.")
    reason = f" — {_drawn(suggestion.reason, painter)}" if suggestion.reason else ""
    return _("Hint: {action}").format(action=describe_action(suggestion.action, painter)) + reason


def _sentence(message: str) -> str:
    message = " ".join(message.split())
    return message[:1].upper() + message[1:] + ("" if message.endswith((".", ")")) else ".")
