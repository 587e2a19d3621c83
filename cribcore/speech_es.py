"""Scores in Spanish, as a Spanish cribbage player says them: the Spanish half of `cribcore.speech`
(call that module, which chooses the language; this one holds only the Spanish grammar).

The words are those of the Spanish rule documents the project was made from: quincena, pareja, trío,
póker, escalera, color, la jota del palo de la inicial (his nobs), la jota inicial (his heels), treinta y
uno, última carta. Counts are spoken as players do: "quince dos, quince cuatro y una pareja son seis".
Grammar (gender, plural, "y" before the last phrase) cannot be assembled from a message catalog, so
these phrases are built here, in one place, rather than in the catalogs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby

from .cards import Card, Rank, Suit
from .score_shapes import counted_units, run_shape, same_rank_groups
from .scoring import FIFTEEN, FLUSH, GO, HEELS, NOBS, PAIR, RUN, THIRTY_ONE, ScoreItem

__all__ = [
    "card_name",
    "item_name",
    "number_words",
    "plural",
    "reasons",
    "spoken_play",
    "spoken_show",
    "spoken_starter",
]

KindWords = Callable[[ScoreItem], "tuple[str, Callable[[int, int], str], str] | None"]
"""Looks up a plugin's kind: its Spanish label, its spoken form for (points, total) and its plural, or
None."""

_ONES = (
    "cero",
    "uno",
    "dos",
    "tres",
    "cuatro",
    "cinco",
    "seis",
    "siete",
    "ocho",
    "nueve",
    "diez",
    "once",
    "doce",
    "trece",
    "catorce",
    "quince",
    "dieciséis",
    "diecisiete",
    "dieciocho",
    "diecinueve",
    "veinte",
    "veintiuno",
    "veintidós",
    "veintitrés",
    "veinticuatro",
    "veinticinco",
    "veintiséis",
    "veintisiete",
    "veintiocho",
    "veintinueve",
)
_TENS = ["", "", "", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]


def number_words(n: int) -> str:
    """``n`` in Spanish words for 0..99 (``veintinueve``, ``treinta y uno``); others as digits."""
    if 0 <= n < 30:
        return _ONES[n]
    if 30 <= n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f" y {_ONES[ones]}" if ones else "")
    return str(n)


_RANKS = {
    Rank.ACE: "as",
    Rank.JACK: "jota",
    Rank.QUEEN: "reina",
    Rank.KING: "rey",
}
_SUITS = {Suit.CLUBS: "tréboles", Suit.DIAMONDS: "diamantes", Suit.HEARTS: "corazones", Suit.SPADES: "picas"}


def card_name(card: Card) -> str:
    """A card by name, as a sentence needs it: ``el siete de picas``, ``la jota de corazones``."""
    rank = _RANKS.get(card.rank) or number_words(int(card.rank))
    article = "la" if card.rank in (Rank.JACK, Rank.QUEEN) else "el"
    return f"{article} {rank} de {_SUITS[card.suit]}"


_SAME_RANK = {2: "pareja", 3: "trío", 4: "póker"}
_SAME_RANK_ARTICLE = {2: "una pareja", 3: "un trío", 4: "un póker"}


def item_name(item: ScoreItem, plugin: KindWords) -> str:
    """What a Spanish player calls one item: ``quincena``, ``pareja``, ``trío``, ``póker``,
    ``escalera de cuatro``, ``color de cinco``, ``la jota del palo de la inicial``, ``la jota
    inicial``, ``treinta y uno``, ``última carta``; a plugin's kind by its Spanish label."""
    size = len(item.cards)
    if item.kind == FIFTEEN:
        return "quincena"
    if item.kind == PAIR:
        return _SAME_RANK.get(size, f"{number_words(size)} iguales")
    if item.kind == RUN:
        return f"escalera de {number_words(size)}"
    if item.kind == FLUSH:
        return f"color de {number_words(size)}"
    if item.kind == NOBS:
        return "la jota del palo de la inicial"
    if item.kind == HEELS:
        return "la jota inicial"
    if item.kind == THIRTY_ONE:
        return "treinta y uno"
    if item.kind == GO:
        return "última carta"
    found = plugin(item)
    if found is not None:
        return found[0]
    return item.kind.replace("-", " ").replace("_", " ")


def plural(name: str) -> str:
    # "escalera de tres" -> "escaleras de tres": only the head noun takes the plural.
    if name.startswith("la "):
        return name
    head, sep, tail = name.partition(" de ")
    if head.endswith(("a", "e", "i", "o", "u", "á", "é", "í", "ó", "ú")):
        head += "s"
    elif head == "póker":
        head = "póqueres"
    else:
        head += "es"
    return head + sep + tail


def reasons(items: Sequence[ScoreItem], plugin: KindWords) -> str:
    """A score's reasons with the points of each: ``quincena 2, escalera de tres 3``; neighbouring
    items of one name grouped: ``cuatro quincenas 8, dos parejas 4``; the pairs of three or four cards
    of a rank named as one, as the show is counted: ``trío 6``."""
    parts = []
    named = [
        (_SAME_RANK[cards] if cards else item_name(item, plugin), points, item)
        for item, cards, points in counted_units(items)
    ]
    for name, group in groupby(named, key=lambda unit: unit[0]):
        same = list(group)
        points = sum(unit[1] for unit in same)
        if len(same) == 1:
            parts.append(f"{name} {points}")
        else:
            found = plugin(same[0][2])
            parts.append(f"{number_words(len(same))} {found[2] if found else plural(name)} {points}")
    return ", ".join(parts)


def _is(total: int) -> str:
    return f"es {number_words(total)}" if total == 1 else f"son {number_words(total)}"


_RUN_MULTIPLE = {
    (): "una escalera",
    (2,): "una escalera doble",
    (3,): "una escalera triple",
    (4,): "una escalera cuádruple",
    (2, 2): "una escalera doble doble",
}


def _run_phrase(runs: Sequence[ScoreItem]) -> str:
    length, repeated, count = run_shape(runs)
    label = _RUN_MULTIPLE.get(repeated, f"{number_words(count)} escaleras")
    return f"{label} de {number_words(length)}"


def _pair_phrases(pairs: Sequence[ScoreItem]) -> list[tuple[str, int]]:
    groups = [
        (_SAME_RANK_ARTICLE.get(cards, f"{number_words(cards)} iguales"), points)
        for cards, points in same_rank_groups(pairs)
    ]
    if len(groups) > 1 and all(name == "una pareja" for name, _ in groups):
        return [(f"{number_words(len(groups))} parejas", sum(points for _, points in groups))]
    return groups


def _with_article(item: ScoreItem, plugin: KindWords) -> str:
    if item.kind == PAIR:
        return _SAME_RANK_ARTICLE.get(len(item.cards), item_name(item, plugin))
    if item.kind == RUN:
        return f"una {item_name(item, plugin)}"
    if item.kind == FLUSH:
        return f"un {item_name(item, plugin)}"
    if item.kind == FIFTEEN:
        return "una quincena"
    if item.kind == GO:
        return "la última carta"
    return item_name(item, plugin)


def spoken_show(items: Sequence[ScoreItem], plugin: KindWords) -> str:
    """A hand or crib counted aloud with a running total: ``quince dos, quince cuatro y una pareja
    son seis``. A hand with nothing says so."""
    words: list[str] = []
    total = 0
    for item in items:
        if item.kind == FIFTEEN:
            total += item.points
            words.append(f"quince {number_words(total)}")
    for name, points in _pair_phrases([item for item in items if item.kind == PAIR]):
        total += points
        words.append(f"{name} {_is(total)}")
    runs = [item for item in items if item.kind == RUN]
    for _, group in groupby(runs, key=lambda item: len(item.cards)):
        same = list(group)
        total += sum(item.points for item in same)
        words.append(f"{_run_phrase(same)} {_is(total)}")
    for item in items:
        if item.kind in (FIFTEEN, PAIR, RUN):
            continue
        total += item.points
        found = plugin(item)
        if found is not None:
            words.append(found[1](item.points, total))
        elif item.kind == NOBS:
            words.append(f"uno por la jota del palo de la inicial {_is(total)}")
        else:
            words.append(f"{_with_article(item, plugin)} {_is(total)}")
    if not words:
        return 'nada que contar (un "diecinueve")'
    if len(words) > 1 and not words[-1].startswith("quince "):
        return f"{', '.join(words[:-1])} y {words[-1]}"
    return ", ".join(words)


def spoken_play(count: int, items: Sequence[ScoreItem], plugin: KindWords) -> str:
    """The count announced on laying a card: ``siete``, ``quince dos``, ``veintitrés y una pareja son
    dos``, ``treinta y uno por dos``, ``quince dos y una escalera de tres son cinco``."""
    total = 0
    words: list[str] = []
    rest: list[ScoreItem] = []
    for item in items:
        if item.kind == FIFTEEN:
            total += item.points
            words.append(f"quince {number_words(total)}")
        elif item.kind == THIRTY_ONE:
            total += item.points
            words.append(f"treinta y uno por {number_words(total)}")
        else:
            rest.append(item)
    if not words:
        # A comma after the bare count: "treinta, y una escalera" is never heard as "treinta y una".
        words.append(number_words(count) + ("," if rest else ""))
    for item in rest:
        total += item.points
        found = plugin(item)
        if found is not None:
            words.append(f"y {found[1](item.points, total)}")
        else:
            words.append(f"y {_with_article(item, plugin)} {_is(total)}")
    return " ".join(words)


def spoken_starter(items: Sequence[ScoreItem], plugin: KindWords) -> str:
    """What the dealer scores for the starter: ``la jota inicial (sale una jota de carta inicial)``."""
    if all(item.kind == HEELS for item in items):
        return "la jota inicial (sale una jota de carta inicial)"
    parts = []
    total = 0
    for item in items:
        total += item.points
        found = plugin(item)
        parts.append(
            found[1](item.points, total) if found is not None else f"{item_name(item, plugin)} {item.points}"
        )
    return ", ".join(parts)
