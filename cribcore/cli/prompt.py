"""Reading a human's decisions: lines from the terminal, the quit confirmation, and turning what they
type (card texts, positions in the hand, commands) into an action the engine accepts.

Contract: bad input never raises out of here and never changes the game. Every problem is shown as one
short line and the same prompt is asked again. The only ways out are a legal action, or `QuitGame`
(the human confirmed quitting, typed ``quit``, or input ended).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console, RenderableType
from rich.text import Text

from ..actions import Action, Discard, Play
from ..cards import Card, CardParseError, parse_card
from ..players import SimplePlayer
from ..views import SeatView
from .describe import Voice, number_words
from .render import Painter

__all__ = ["HELP", "QuitGame", "Reader", "ask_action", "parse_picks"]

HELP = """\
Name a card by rank and suit, in any case: 5h, JC, 10s, TS, q♥. Or by its position in your hand:
1 is the first card shown, 2 the next, and so on.
  Discard: choose 2 cards for the crib, e.g.  5h jc   or   1 4
  Play:    choose one card, e.g.  7d   or   3. Cards that would pass 31 are shown faint;
           when none fits, the game says go for you.
Commands: help, hint (what the computer would do), quit or q.
Ctrl-C or Ctrl-D also offers to quit."""

_QUIT_WORDS = frozenset({"q", "quit", "exit"})
_HELP_WORDS = frozenset({"help", "h", "?"})


class QuitGame(Exception):
    """The game stops before its end: the human chose to quit (``code`` 0) or input ended (1)."""

    def __init__(self, reason: str, code: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


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
        if answer.strip().lower() in ("y", "yes"):
            raise QuitGame("you quit")

    def problem(self, message: str) -> None:
        """Show one short line about input that was not accepted."""
        self.console.print(Text(f"  {message}", style="yellow"))

    def show(self, renderable: RenderableType) -> None:
        self.console.print(renderable)

    def pause(self, prompt: str = "Press Enter for the next deal (q to quit) ") -> None:
        """Wait for Enter; ``q``/``quit`` quits."""
        if self.line(prompt).lower() in _QUIT_WORDS:
            raise QuitGame("you quit")


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


def ask_action(
    reader: Reader,
    view: SeatView,
    voice: Voice,
    painter: Painter,
    check: Callable[[Action], None],
) -> Action:
    """Ask the human at ``view.seat`` for one of ``view.legal_actions`` and return it.

    ``check`` is the engine's validator (`Game.check` for this seat): its `IllegalAction` message is
    what the human reads when a choice is not allowed (not held, past 31, wrong number of cards).
    """
    discarding = isinstance(view.legal_actions[0], Discard)
    wanted = view.rules.discards if discarding else 1
    if discarding:
        what = f"{wanted} card{'s' if wanted != 1 else ''}"
        prompt = f"Choose {what} for {voice.owner(view.dealer)} crib: "
        example = "5h jc' or positions '1 4"
    else:
        what = "a card"
        prompt = f"Play a card (count {view.count}): "
        example = "7d' or a position like '2"
    while True:
        text = reader.line(prompt)
        word = text.lower()
        if not text:
            reader.problem(f"Type {what}, e.g. '{example}' (help for more).")
            continue
        if word in _HELP_WORDS:
            reader.show(Text(HELP, style="dim"))
            continue
        if word in _QUIT_WORDS:
            raise QuitGame("you quit")
        if word == "hint":
            reader.show(Text(f"  {_hint(view, painter)}", style="dim"))
            continue
        if word == "go" and not discarding:
            fits = _either([painter.plain(a.card) for a in view.legal_actions if isinstance(a, Play)])
            reader.problem(f"You can still play {fits}; the game says go for you when no card fits.")
            continue
        try:
            picks = parse_picks(text, view.hand, wanted)
            action: Action = Discard(picks) if discarding else _one_play(picks)
            check(action)
        except ValueError as exc:  # IllegalAction is a ValueError: the engine's reason, as it says it
            reader.problem(_sentence(str(exc)))
            continue
        return action


def _either(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _one_play(picks: Sequence[Card]) -> Play:
    if len(picks) != 1:
        raise ValueError(f"play one card at a time, not {number_words(len(picks))}")
    return Play(picks[0])


def _hint(view: SeatView, painter: Painter) -> str:
    action = SimplePlayer().choose(view)
    if isinstance(action, Discard):
        return f"Hint: the computer would lay away {' '.join(painter.plain(c) for c in action.cards)}."
    return f"Hint: the computer would play {painter.plain(action.card)}."


def _sentence(message: str) -> str:
    message = " ".join(message.split())
    return message[:1].upper() + message[1:] + ("" if message.endswith((".", ")")) else ".")
