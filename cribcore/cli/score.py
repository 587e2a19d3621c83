"""The ``score`` and ``peg`` commands: the count of a hand in the show, and the points each card scores
when laid in order on one count, under a profile's rules (standard by default). Both only parse, ask the
profile's `cribcore.rulebook.Rulebook`, and print the result as text or JSON."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from ..cards import Card, format_cards, parse_card
from ..cards_es import from_spanish
from ..i18n import _
from ..rulebook import Rulebook, standard_rulebook
from ..scoring import Score, ScoreItem, check_show, peg_sequence
from .describe import reasons, spoken_show
from .render import Painter, columns, items_lines, print_json

__all__ = ["HAND_SIZES", "peg_command", "score_command"]

HAND_SIZES = range(1, 7)
"""Hands of 1 to 6 cards: variants keep 3 (five-card), 4 (six-card) or 5 (seven-card)."""


def _parse_all(texts: Sequence[str]) -> list[Card]:
    # Spanish cards may span arguments ("7 de picas"): read the line whole, then token by token.
    return [parse_card(text) for text in from_spanish(" ".join(texts)).split()]


def score_command(
    hand_texts: Sequence[str],
    starter_text: str,
    *,
    crib: bool,
    as_json: bool,
    console: Console,
    rulebook: Rulebook | None = None,
) -> int:
    """Print the show count of the hand (or crib) with the starter under ``rulebook`` (standard by
    default; the JSON names the profile when a rulebook is given). Raises `ValueError` for a token that
    is not a card, a card named twice, or a hand size outside `HAND_SIZES`."""
    book = rulebook if rulebook is not None else standard_rulebook()
    hand = _parse_all(hand_texts)
    starter = parse_card(from_spanish(starter_text))
    if len(hand) not in HAND_SIZES:
        raise ValueError(f"a hand has {HAND_SIZES.start} to {HAND_SIZES.stop - 1} cards, not {len(hand)}")
    check_show(hand, starter)
    score = Score(book.show_items(hand, starter, crib=crib))
    if as_json:
        named = {"profile": book.profile_name} if rulebook is not None else {}
        print_json({**score.to_json(), **named})
        return 0
    painter = Painter.for_console(console)
    title = Text((_("Crib") if crib else _("Hand")) + " ", style="bold")
    title.append_text(painter.cards(hand)).append(_(" with starter ")).append_text(painter.card(starter))
    console.print(title)
    for line in items_lines(score.items, painter, total=score.total):
        console.print(line)
    console.print(spoken_show(score.items))
    return 0


def peg_command(
    card_texts: Sequence[str],
    *,
    last: bool,
    as_json: bool,
    console: Console,
    rulebook: Rulebook | None = None,
) -> int:
    """Print what each card scores when laid in order on one count under ``rulebook`` (standard by
    default; the JSON names the profile in each entry when a rulebook is given). The seats take turns,
    seat 1 leading and seat 0 dealing. With ``last``, nobody can play on after the final card. Raises
    `ValueError` for a bad token, a repeated card, or a count past 31."""
    book = rulebook if rulebook is not None else standard_rulebook()
    cards = _parse_all(card_texts)
    seats = book.rules.seats

    def items(pile: Sequence[Card]) -> Sequence[ScoreItem]:
        # The pone leads and the seats take turns: what a plugin that asks who laid a card is told.
        return book.play_items(pile, seat=len(pile) % seats, dealer=0)

    scores = peg_sequence(cards, last=last, items=items)
    counts = _running_counts(cards)
    if as_json:
        named = {"profile": book.profile_name} if rulebook is not None else {}
        print_json(
            [
                {"card": str(card), "count": count, "points": score.total, **_items(score), **named}
                for card, count, score in zip(cards, counts, scores, strict=True)
            ]
        )
        return 0
    painter = Painter.for_console(console)
    rows: list[list[Text | str]] = [
        [painter.card(card), _("count"), str(count), str(score.total), reasons(score.items, last_card=last)]
        for card, count, score in zip(cards, counts, scores, strict=True)
    ]
    console.print(Text(_("Laid in order: {cards}").format(cards=format_cards(cards)), style="bold"))
    for line in columns(rows, right=(2, 3), gap=2):
        line.pad_left(2)
        console.print(line)
    return 0


def _running_counts(cards: Sequence[Card]) -> list[int]:
    counts = []
    total = 0
    for card in cards:
        total += card.value
        counts.append(total)
    return counts


def _items(score: Score) -> dict[str, object]:
    return {"items": score.to_json()["items"]}
