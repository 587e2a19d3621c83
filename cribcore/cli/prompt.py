"""Reading a human's decisions: lines from the terminal, the quit confirmation, and turning what they
type (card texts, positions in the hand, commands) into an action the engine accepts.

Contract: bad input never raises out of here and never changes the game. Every problem is shown as one
short line and the same prompt is asked again. The only ways out are a legal action, or `QuitGame`
(the human confirmed quitting, typed ``quit``, or input ended).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console, RenderableType
from rich.text import Text

from ..actions import Action, Count, Discard, Muggins, Pass, Play, PluginAction, parse_action
from ..cards import Card, CardParseError, parse_card
from ..players import hint
from ..players.muggins import declared_so_far
from ..views import SeatView
from .describe import Voice, number_words
from .render import Painter

__all__ = [
    "ASKERS",
    "HELP",
    "Ask",
    "NewGame",
    "QuitGame",
    "Reader",
    "ask_action",
    "describe_action",
    "parse_picks",
]

HELP = """\
Name a card by rank and suit, in any case: 5h, JC, 10s, TS, q♥. Or by its position in your hand:
1 is the first card shown, 2 the next, and so on.
  Discard: choose the cards for the crib, e.g.  5h jc   or   1 4
  Play:    choose one card, e.g.  7d   or   3. Cards that would pass 31 are shown faint;
           when none fits, the game says go for you.
Commands: hint or ? (what the computer would do, and why), board (the pegging board),
new (start a new game), quit or q. Ctrl-C or Ctrl-D also offers to quit."""

_QUIT_WORDS = frozenset({"q", "quit", "exit"})
_HELP_WORDS = frozenset({"help", "h"})
_HINT_WORDS = frozenset({"hint", "?"})
_YES = frozenset({"y", "yes"})


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
                    raise QuitGame("input ended before the game did", code=1) from None
                self._confirm_quit()
            except KeyboardInterrupt:
                self.console.print()
                self._confirm_quit()

    def _confirm_quit(self) -> None:
        """Ask whether to quit; raise `QuitGame` on yes (or on a second Ctrl-C/Ctrl-D), else return."""
        try:
            answer = self.console.input(Text("Quit this game? [y/N] ", style="bold"))
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise QuitGame("you quit") from None
        if answer.strip().lower() in _YES:
            raise QuitGame("you quit")

    def confirm(self, question: str) -> bool:
        """Ask a yes/no ``question`` (no unless answered ``y``); Ctrl-C or Ctrl-D answers no, and end
        of piped input quits as at any prompt."""
        try:
            answer = self.console.input(Text(f"{question} [y/N] ", style="bold"))
        except EOFError:
            self.console.print()
            if not self.interactive:
                raise QuitGame("input ended before the game did", code=1) from None
            return False
        except KeyboardInterrupt:
            self.console.print()
            return False
        return answer.strip().lower() in _YES

    def problem(self, message: str) -> None:
        """Show one short line about input that was not accepted."""
        self.console.print(Text(f"  {message}", style="yellow"))

    def show(self, renderable: RenderableType) -> None:
        self.console.print(renderable)

    def pause(
        self,
        prompt: str = "Press Enter for the next deal (q to quit) ",
        commands: Mapping[str, Callable[[], None]] | None = None,
    ) -> None:
        """Wait for Enter; ``q``/``quit`` quits; a word in ``commands`` runs it and asks again."""
        while True:
            word = self.line(prompt).lower()
            if word in _QUIT_WORDS:
                raise QuitGame("you quit")
            if commands and word in commands:
                commands[word]()
                continue
            return


def parse_picks(text: str, hand: Sequence[Card], wanted: int) -> tuple[Card, ...]:
    """The cards named by ``text``: card texts (``5h``, ``10S``, ``j♣``) and/or positions 1..len(hand)
    in ``hand``. When several cards are wanted, a run of position digits such as ``14`` means 1 and 4.

    Raises `ValueError` with a short message for a token that is neither; whether the cards are held
    and legal is the engine's question, not this function's.
    """
    picks: list[Card] = []
    size = len(hand)
    for token in text.replace(",", " ").split():
        if token.isdigit():
            number = int(token)
            if 1 <= number <= size:
                picks.append(hand[number - 1])
            elif wanted > 1 and len(token) == wanted and all("1" <= d <= str(size) for d in token):
                picks.extend(hand[int(d) - 1] for d in token)
            else:
                raise ValueError(f"there is no card {token} in your hand: positions go from 1 to {size}")
            continue
        try:
            picks.append(parse_card(token))
        except CardParseError:
            raise ValueError(
                f"{token!r} is not a card: type a card like 5h or 10s, or a position 1-{size} (help for more)"
            ) from None
    return tuple(picks)


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
    what = f"{number_words(wanted) if wanted > 2 else wanted} card{'s' if wanted != 1 else ''}"
    example = "5h jc' or positions '1 4" if wanted == 2 else "5h' or a position like '4"

    def parse(text: str) -> Action:
        return Discard(parse_picks(text, view.hand, wanted))

    return Ask(f"Choose {what} for {voice.owner(view.dealer)} crib: ", what, example, parse)


def _ask_play(view: SeatView, voice: Voice, painter: Painter) -> Ask:
    def parse(text: str) -> Action:
        if text.lower() == "go":
            fits = _either([painter.plain(a.card) for a in view.legal_actions if isinstance(a, Play)])
            raise ValueError(f"you can still play {fits}; the game says go for you when no card fits")
        picks = parse_picks(text, view.hand, 1)
        if len(picks) != 1:
            raise ValueError(f"play one card at a time, not {number_words(len(picks))}")
        return Play(picks[0])

    return Ask(f"Play a card (count {view.count}): ", "a card", "7d' or a position like '2", parse)


def _ask_other(view: SeatView, voice: Voice, painter: Painter) -> Ask:
    """Any other kind of action (a variant's): typed in its text form, as `parse_action` reads it."""
    shown = [str(action) for action in view.legal_actions[:3]]
    more = ", …" if len(view.legal_actions) > 3 else ""
    return Ask(f"Your move ({', '.join(shown)}{more}): ", "a move", shown[0], parse_action)


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
        raise ValueError(f"type one of: {', '.join(texts)}")

    shown = ", ".join(texts) if len(texts) <= 8 else f"{', '.join(texts[:7])}, …, {texts[-1]}"
    return Ask(f"{name.capitalize()} ({shown}): ", f"one of {', '.join(texts)}", texts[0], parse)


def _number(text: str, verb: str) -> int:
    words = text.lower().split()
    if len(words) == 2 and words[0] == verb:
        words = words[1:]
    if len(words) != 1 or not words[0].isdigit():
        raise ValueError(f"type a number of points, like 6 (or '{verb} 6')")
    return int(words[0])


def _ask_count(view: SeatView, voice: Voice, painter: Painter) -> Ask:
    """Muggins: the human declares their own count; an undercount stands and may be taken."""
    if view.phase == "play" and view.pile:
        what = f"the {painter.plain(view.pile[-1][1])} you laid"
    elif view.counting is not None and view.seat == view.dealer and _counting_crib(view):
        what = "your crib"
    else:
        what = "your hand"

    def parse(text: str) -> Action:
        return Count(_number(text, "count"))

    return Ask(f"Your count for {what} (0 if nothing): ", "your count", "6", parse)


def _counting_crib(view: SeatView) -> bool:
    last = next((e for e in reversed(view.events) if e.kind in ("hand", "crib")), None)
    return last is not None and last.kind == "crib"


def _ask_call(view: SeatView, voice: Voice, painter: Painter) -> Ask:
    """Muggins: after another side's count, call for points it missed, or let it stand."""
    counted = declared_so_far(view)
    who = voice.subject(view.counting)

    def parse(text: str) -> Action:
        if text.lower() in ("pass", "p", "no", "n"):
            return Pass()
        return Muggins(_number(text, "muggins"))

    prompt = f"{who} counted {counted}. Muggins? points missed, or Enter to let it stand: "
    return Ask(prompt, "the points missed", "2", parse, empty="pass")


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
        return f"lay away {' '.join(painter.plain(c) for c in action.cards)}"
    if isinstance(action, Play):
        return f"play {painter.plain(action.card)}"
    if isinstance(action, Count):
        return f"count {action.points}"
    if isinstance(action, Muggins):
        return f"call muggins for {action.points}"
    if isinstance(action, PluginAction):
        return action.text
    return "let the count stand"


def ask_action(
    reader: Reader,
    view: SeatView,
    voice: Voice,
    painter: Painter,
    check: Callable[[Action], None],
    *,
    commands: Mapping[str, Callable[[], None]] | None = None,
    help_text: str = HELP,
    hints: bool = True,
) -> Action:
    """Ask the human at ``view.seat`` for one of ``view.legal_actions`` and return it.

    ``check`` is the engine's validator (`Game.check` for this seat): its `IllegalAction` message is
    what the human reads when a choice is not allowed (not held, past 31, wrong number of cards).
    ``commands`` are further words the prompt answers (``board``, ``new``); each runs and the prompt
    is asked again, unless it raises (`NewGame`, `QuitGame`). Without ``hints`` (a game with a friend)
    asking for a hint says there are none.
    """
    ask = ASKERS.get(type(view.legal_actions[0]), _ask_other)(view, voice, painter)
    while True:
        text = reader.line(ask.prompt) or (ask.empty or "")
        word = text.lower()
        if not text:
            reader.problem(f"Type {ask.what}, e.g. '{ask.example}' (help for more).")
            continue
        if word in _HELP_WORDS:
            reader.show(Text(help_text, style="dim"))
            continue
        if word in _QUIT_WORDS:
            raise QuitGame("you quit")
        if word in _HINT_WORDS:
            if not hints:
                reader.problem(
                    "No hints in a game with a friend: a hint would be the computer playing for you."
                )
                continue
            reader.show(Text(f"  {_hint(view, painter)}", style="dim"))
            continue
        if commands and word in commands:
            commands[word]()
            continue
        try:
            action = ask.parse(text)
            check(action)
        except ValueError as exc:  # IllegalAction is a ValueError: the engine's reason, as it says it
            reader.problem(_sentence(str(exc)))
            continue
        return action


def _either(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _hint(view: SeatView, painter: Painter) -> str:
    if view.claim_stage is not None and view.claim_points is None:
        # A view from a server does not carry the true count (a browser would show it to the player).
        return "No hint for a count here: count the cards yourself."
    try:
        suggestion = hint(view)
    except Exception:  # a hint is an extra: its failure must never end the game
        return "No hint is available here."
    reason = f" — {suggestion.reason}" if suggestion.reason else ""
    return f"Hint: {describe_action(suggestion.action, painter)}{reason}"


def _sentence(message: str) -> str:
    message = " ".join(message.split())
    return message[:1].upper() + message[1:] + ("" if message.endswith((".", ")")) else ".")
