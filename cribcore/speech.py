"""Scores in words, as a cribbage player says them: what each `ScoreItem` is called, a score's reasons,
a hand counted aloud with its running total, and the count announced as a card is laid.

Pure text shared by every face: the terminal (`cribcore.cli.describe`) and the server, which sends the
phrases with each event so that a browser says exactly what the terminal says.

Every function speaks English or Spanish: its ``lang`` keyword (``"en"`` or ``"es"``) chooses, and by
default it is the process's current language (`cribcore.i18n.current_language`), so that the server can
speak to each seat in its own language. The Spanish grammar is in `cribcore.speech_es`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from . import speech_es
from .cards import Card, Rank
from .i18n import check_language, current_language
from .score_shapes import counted_units, run_shape, same_rank_groups
from .scoring import FIFTEEN, FLUSH, GO, HEELS, NOBS, PAIR, RUN, THIRTY_ONE, ScoreItem

__all__ = [
    "STANDARD_KINDS",
    "ScoreKind",
    "card_name",
    "is_silent",
    "item_name",
    "number_words",
    "reasons",
    "register_kinds",
    "spoken_play",
    "spoken_show",
    "spoken_starter",
    "wild_text",
    "wild_word",
]

STANDARD_KINDS = frozenset({FIFTEEN, PAIR, RUN, FLUSH, NOBS, HEELS, THIRTY_ONE, GO})
"""The kinds of the standard rules, whose words are fixed here."""


@dataclass(frozen=True, slots=True)
class ScoreKind:
    """The words for a plugin's own kind of score item (see the ``cribcore_score_kinds`` hook).

    ``label`` names one item where items are listed (``joker turned up``: "joker turned up 2").
    ``spoken`` says it as a player does when it scores, in a hand counted aloud, a card's count in the
    play and the starter turned up: a template whose ``{points}`` are the item's points and ``{total}``
    the running total, both in words (``two for the joker``, ``a play flush is {total}``). Empty, it is
    ``a <label> is {total}``.

    ``translations`` gives the words in another language, by language code: ``{"es":
    ScoreKind("comodín de salida", "dos por el comodín")}`` (its numbers are said in that language). A
    language without a translation uses these words; a translation without a ``spoken`` form says the
    English one when there is one (so a label is never forced into a sentence it does not fit), else
    ``<label> son {total}``.

    ``plural`` names several items of the kind where neighbouring items are grouped ("two jokers turned
    up 4"); empty, it is the label with its language's plural ending on the word before "of" ("de"), or
    else on its last word.
    ``silent`` marks an informational kind: its items are listed with the others but score nothing
    (their points must be 0) and are never spoken or given as reasons. A translation's ``silent`` is
    not read: an item is silent or not in every language.

    *Changed in cribcore 0.2:* ``plural`` and ``silent``; the English fallback of ``spoken``.
    """

    label: str
    spoken: str = ""
    translations: Mapping[str, ScoreKind] = field(default_factory=dict, compare=True)
    plural: str = ""
    silent: bool = False

    def __hash__(self) -> int:
        return hash((self.label, self.spoken, tuple(sorted(self.translations)), self.plural, self.silent))

    def in_language(self, lang: str) -> ScoreKind:
        """The words for ``lang``: its translation, else these."""
        return self.translations.get(lang, self) if lang != "en" else self

    def plural_in(self, lang: str = "en") -> str:
        """The name of several items of the kind in ``lang``: its ``plural``, else the label made plural."""
        words = self.in_language(lang)
        if words.plural:
            return words.plural
        if lang == "es" and words is not self:
            return speech_es.plural(words.label)
        return _plural(words.label)

    def say(self, points: int, total: int, lang: str = "en") -> str:
        """The spoken form for an item of ``points`` when the running total reaches ``total``, in
        ``lang`` (the translation's words and that language's numbers; the English spoken form, with
        English numbers, when the translation has none)."""
        words = self.in_language(lang)
        if lang == "es" and words is not self and (words.spoken or not self.spoken):
            template = words.spoken or f"{words.label} son {{total}}"
            return template.format(points=speech_es.number_words(points), total=speech_es.number_words(total))
        template = self.spoken or f"{_with_article(self.label)} is {{total}}"
        return template.format(points=_en_words(points), total=_en_words(total))


_KINDS: dict[str, ScoreKind] = {}
"""Plugins' kinds registered in this process (the words are the same in every game)."""


def register_kinds(kinds: Mapping[str, ScoreKind]) -> None:
    """Make plugins' kinds known to every face of this process (called as a profile is loaded).

    Raises `ValueError` naming the kind when it is a standard kind, when it is already registered
    with other words, or when its words are not a valid template.
    """
    for kind, words in kinds.items():
        if kind in STANDARD_KINDS:
            raise ValueError(f"score kind {kind!r} is a standard kind; its words cannot change")
        known = _KINDS.get(kind)
        if known is not None and known != words:
            raise ValueError(f"score kind {kind!r} is already named {known.label!r}")
        if not words.label.strip():
            raise ValueError(f"score kind {kind!r} needs a label")
        for lang, translated in words.translations.items():
            try:
                check_language(lang)
            except ValueError as exc:
                raise ValueError(f"score kind {kind!r}: translation {exc}") from None
            if not translated.label.strip():
                raise ValueError(f"score kind {kind!r} needs a label in {lang!r}")
        for lang in ("en", *words.translations):
            try:
                words.say(2, 2, lang)
            except (KeyError, IndexError, ValueError) as exc:
                bad = words.in_language(lang).spoken
                raise ValueError(f"score kind {kind!r}: bad spoken form {bad!r}: {exc}") from None
    for kind, words in kinds.items():
        _KINDS[kind] = words


_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _lang(lang: str | None) -> str:
    return current_language() if lang is None else check_language(lang)


def _plugin_words(lang: str) -> Callable[[ScoreItem], tuple[str, Callable[[int, int], str], str] | None]:
    def look_up(item: ScoreItem) -> tuple[str, Callable[[int, int], str], str] | None:
        kind = _KINDS.get(item.kind)
        if kind is None:
            return None
        return (
            kind.in_language(lang).label,
            lambda points, total: kind.say(points, total, lang),
            kind.plural_in(lang),
        )

    return look_up


def is_silent(item: ScoreItem) -> bool:
    """Whether ``item`` is of a silent kind (`ScoreKind.silent`): listed, never spoken nor given as a
    reason."""
    kind = _KINDS.get(item.kind)
    return kind is not None and kind.silent


def _audible(items: Sequence[ScoreItem]) -> Sequence[ScoreItem]:
    if not _KINDS or not any(is_silent(item) for item in items):
        return items
    return [item for item in items if not is_silent(item)]


def wild_word(*, lang: str | None = None) -> str:
    """The word between a wild card and what it stood for: ``as`` (``J♠ as 4♦``) / ``como``."""
    return "como" if _lang(lang) == "es" else "as"


def wild_text(card: str, stood_for: str, *, lang: str | None = None) -> str:
    """A wild card with what it stood for, each as the caller draws it: ``J♠ as 4♦`` / ``J♠ como 4♦``."""
    return f"{card} {wild_word(lang=lang)} {stood_for}"


_RANK_NAMES = {Rank.ACE: "ace", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}


def card_name(card: Card, *, lang: str | None = None) -> str:
    """A card by name, as a sentence needs it: ``the seven of spades`` / ``el siete de picas``."""
    if _lang(lang) == "es":
        return speech_es.card_name(card)
    rank = _RANK_NAMES.get(card.rank) or _en_words(int(card.rank))
    return f"the {rank} of {card.suit.name.lower()}"


def number_words(n: int, *, lang: str | None = None) -> str:
    """``n`` in words for 0..99 (``twenty-nine`` / ``veintinueve``); other numbers as digits."""
    if _lang(lang) == "es":
        return speech_es.number_words(n)
    return _en_words(n)


def _en_words(n: int) -> str:
    if 0 <= n < 20:
        return _ONES[n]
    if 20 <= n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    return str(n)


_SAME_RANK = {2: "pair", 3: "three of a kind", 4: "four of a kind"}


def item_name(item: ScoreItem, *, lang: str | None = None, last_card: bool = False) -> str:
    """What a player calls one item: ``fifteen``, ``pair``, ``three of a kind`` (a pair royal in the
    play), ``run of four``, ``flush of five``, ``his nobs``, ``his heels``, ``thirty-one``, ``go``.
    A plugin's kind is named by its registered label (`register_kinds`), or else by its kind with
    dashes as spaces. With ``last_card``, the go point for the last card of the play is called
    ``last card``, as the table says it."""
    code = _lang(lang)
    if code == "es":
        return speech_es.item_name(item, _plugin_words(code))
    size = len(item.cards)
    if item.kind == FIFTEEN:
        return "fifteen"
    if item.kind == PAIR:
        return _SAME_RANK.get(size, f"{_en_words(size)} of a kind")
    if item.kind == RUN:
        return f"run of {_en_words(size)}"
    if item.kind == FLUSH:
        return f"flush of {_en_words(size)}"
    if item.kind == NOBS:
        return "his nobs"
    if item.kind == HEELS:
        return "his heels"
    if item.kind == THIRTY_ONE:
        return "thirty-one"
    if item.kind == GO:
        return "last card" if last_card else "go"
    words = _KINDS.get(item.kind)
    if words is not None:
        return words.label
    return item.kind.replace("-", " ").replace("_", " ")


def _plural(name: str) -> str:
    # "run of three" -> "runs of three": only the head noun takes the plural.
    head, sep, tail = name.partition(" of ")
    if head.startswith("his "):
        return name
    head = head + ("es" if head.endswith(("s", "sh", "ch", "x")) else "s")
    return head + sep + tail


def reasons(items: Sequence[ScoreItem], *, lang: str | None = None, last_card: bool = False) -> str:
    """A score's reasons as a short list with the points of each: ``fifteen 2, run of three 3``.
    Neighbouring items with the same name are grouped: ``four fifteens 8, two pairs 4``; the pairs
    of three or four cards of a rank are named as one, as the show is counted: ``three of a kind 6``. With
    ``last_card``, a go item is the point for the last card (``last card 1``)."""
    code = _lang(lang)
    items = _audible(items)
    if code == "es":
        return speech_es.reasons(items, _plugin_words(code))
    parts = []
    named = [
        (_SAME_RANK[cards] if cards else item_name(item, lang="en", last_card=last_card), points, item)
        for item, cards, points in counted_units(items)
    ]
    for name, group in groupby(named, key=lambda unit: unit[0]):
        same = list(group)
        points = sum(unit[1] for unit in same)
        if len(same) == 1:
            parts.append(f"{name} {points}")
        else:
            kind = _KINDS.get(same[0][2].kind)
            plural = kind.plural_in("en") if kind is not None else _plural(name)
            parts.append(f"{_en_words(len(same))} {plural} {points}")
    return ", ".join(parts)


_RUN_MULTIPLE = {
    (): "a run",
    (2,): "a double run",
    (3,): "a triple run",
    (4,): "a quadruple run",
    (2, 2): "a double-double run",
}


def _run_phrase(runs: Sequence[ScoreItem]) -> str:
    length, repeated, count = run_shape(runs)
    label = _RUN_MULTIPLE.get(repeated, f"{_en_words(count)} runs")
    return f"{label} of {_en_words(length)}"


def _pair_phrases(pairs: Sequence[ScoreItem]) -> list[tuple[str, int]]:
    groups = [
        ("a pair" if cards == 2 else _SAME_RANK.get(cards, f"{_en_words(cards)} of a kind"), points)
        for cards, points in same_rank_groups(pairs)
    ]
    if len(groups) > 1 and all(name == "a pair" for name, _ in groups):
        return [(f"{_en_words(len(groups))} pairs", sum(points for _, points in groups))]
    return groups


def spoken_show(items: Sequence[ScoreItem], *, lang: str | None = None) -> str:
    """A hand or crib counted aloud with a running total, as players do: ``fifteen two, fifteen four,
    a pair is six, and a double run of three is twelve``. A hand with nothing says so."""
    code = _lang(lang)
    items = _audible(items)
    if code == "es":
        return speech_es.spoken_show(items, _plugin_words(code))
    phrases: list[tuple[str, int]] = []
    total = 0
    fifteens = [item for item in items if item.kind == FIFTEEN]
    for item in fifteens:
        total += item.points
        phrases.append((f"fifteen {_en_words(total)}", total))
    for name, points in _pair_phrases([item for item in items if item.kind == PAIR]):
        total += points
        phrases.append((f"{name} is {_en_words(total)}", total))
    runs = [item for item in items if item.kind == RUN]
    for _, group in groupby(runs, key=lambda item: len(item.cards)):
        same = list(group)
        total += sum(item.points for item in same)
        phrases.append((f"{_run_phrase(same)} is {_en_words(total)}", total))
    for item in items:
        if item.kind in (FIFTEEN, PAIR, RUN):
            continue
        total += item.points
        plugin_kind = _KINDS.get(item.kind)
        if plugin_kind is not None:
            phrases.append((plugin_kind.say(item.points, total), total))
            continue
        name = item_name(item, lang="en")
        if item.kind == NOBS:
            name = "one for his nobs"
        elif item.kind == FLUSH:
            name = f"a {name}"
        phrases.append((f"{name} is {_en_words(total)}", total))
    if not phrases:
        return 'nothing to count (a "nineteen")'
    words = [text for text, _ in phrases]
    # "fifteen two, fifteen four, and a pair is six"; fifteens alone take no "and".
    if len(words) > 1 and not words[-1].startswith("fifteen "):
        words[-1] = f"and {words[-1]}"
    return ", ".join(words)


def spoken_play(count: int, items: Sequence[ScoreItem], *, lang: str | None = None) -> str:
    """The count as a player announces it on laying a card, with what the card scores and the running
    total: ``seven``, ``fifteen two``, ``twenty-three and a pair is two``, ``fifteen two and a run of
    three is five``, ``thirty-one for two``, ``twenty-four and three of a kind is six``."""
    code = _lang(lang)
    items = _audible(items)
    if code == "es":
        return speech_es.spoken_play(count, items, _plugin_words(code))
    total = 0
    words: list[str] = []
    rest: list[ScoreItem] = []
    for item in items:
        if item.kind == FIFTEEN:
            total += item.points
            words.append(f"fifteen {_en_words(total)}")
        elif item.kind == THIRTY_ONE:
            total += item.points
            words.append(f"thirty-one for {_en_words(total)}")
        else:
            rest.append(item)
    if not words:
        words.append(_en_words(count))
    for item in rest:
        total += item.points
        kind = _KINDS.get(item.kind)
        if kind is not None:
            words.append(f"and {kind.say(item.points, total)}")
        else:
            words.append(f"and {_with_article(item_name(item, lang='en'))} is {_en_words(total)}")
    return " ".join(words)


def spoken_starter(items: Sequence[ScoreItem], *, lang: str | None = None) -> str:
    """What the dealer scores for the starter, said after "scores N for": ``his heels (a jack turned
    up)``; a plugin's kinds by their spoken forms (``the joker turned up``)."""
    code = _lang(lang)
    items = _audible(items)
    if code == "es":
        return speech_es.spoken_starter(items, _plugin_words(code))
    if all(item.kind == HEELS for item in items):
        return "his heels (a jack turned up)"
    parts = []
    total = 0
    for item in items:
        total += item.points
        kind = _KINDS.get(item.kind)
        parts.append(
            kind.say(item.points, total)
            if kind is not None
            else f"{item_name(item, lang='en')} {item.points}"
        )
    return ", ".join(parts)


def _with_article(name: str) -> str:
    if name.startswith(("his ", "three ", "four ", "five ", "six ")) or name.endswith("s"):
        return name
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"
