"""The expert's choices in the words a player uses, in English or Spanish: what a kept hand holds ("a
double run of three and two fifteens"), what the cards laid away give a crib, what a card scores at
once, and what another choice would have cost.

The facts come from `cribcore.players.expert.Judgement.facts` (its stable keys); the words from the
``cribcore`` gettext catalog, whole sentences with named placeholders so that a translation orders them
its own way. A hand is described by the standard shapes (fifteens, pairs, runs, a flush) of the cards
kept, before the starter: that is what a player sees when laying away.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from ..cards import Card, Rank
from ..i18n import N_, check_language, current_language, gettext, ngettext
from ..speech import number_words
from ..written_numbers import decimal_text
from ..written_numbers import percent_text as written_percent

__all__ = [
    "card_words",
    "cards_words",
    "claim_words",
    "discard_words",
    "hand_features",
    "percent_text",
    "play_words",
    "points_text",
    "reason_words",
]

SMALL = 0.5
"""Differences under this many expected points are not worth a word."""

SMALL_CHANCE = 0.01
"""Differences in the chance to win under this (one percentage point) are not worth a word."""

_RANK_PHRASES = {
    Rank.ACE: N_("the ace"),
    Rank.JACK: N_("the jack"),
    Rank.QUEEN: N_("the queen"),
    Rank.KING: N_("the king"),
}

_TWO_OF = {
    Rank.ACE: N_("the two aces"),
    Rank.JACK: N_("the two jacks"),
    Rank.QUEEN: N_("the two queens"),
    Rank.KING: N_("the two kings"),
}

_RUN_SHAPES = {
    (): N_("a run of {length}"),
    (2,): N_("a double run of {length}"),
    (3,): N_("a triple run of {length}"),
    (2, 2): N_("a double-double run of {length}"),
}

_SAME_RANK = {2: N_("a pair"), 3: N_("three of a kind"), 4: N_("four of a kind")}


def _lang(lang: str | None) -> str:
    return current_language() if lang is None else check_language(lang)


def points_text(points: float, lang: str | None = None) -> str:
    """Expected points with one decimal, written as the language writes numbers (``2.5`` / ``2,5``)."""
    return decimal_text(points, 1, _lang(lang))


def percent_text(chance: float, lang: str | None = None) -> str:
    """A chance (0 to 1) as percentage points with one decimal: ``4.3%`` / ``4,3 %``."""
    return written_percent(100 * chance, 1, _lang(lang))


def card_words(card: Card, lang: str | None = None) -> str:
    """A card by its rank, as players name a card in a sentence: ``the 5``, ``the jack`` / ``el 5``,
    ``la jota`` (the suit rarely matters to the reason)."""
    code = _lang(lang)
    phrase = _RANK_PHRASES.get(card.rank)
    if phrase is not None:
        return gettext(phrase, code)
    return gettext("the {rank}", code).format(rank=int(card.rank))


def cards_words(cards: Sequence[Card], lang: str | None = None) -> str:
    """Cards by rank, joined as a sentence joins them: ``the 5 and the jack``, ``the 6, the 7 and the
    two kings``."""
    code = _lang(lang)
    ranks = Counter(card.rank for card in cards)
    names: list[str] = []
    for rank in dict.fromkeys(card.rank for card in cards):  # each rank once, in the cards' order
        if ranks[rank] == 2:
            phrase = _TWO_OF.get(rank)
            two = (
                gettext("the two {rank}s", code).format(rank=int(rank))
                if phrase is None
                else gettext(phrase, code)
            )
            names.append(two)
        else:
            names.extend(card_words(card, code) for card in cards if card.rank == rank)
    return _listed(names, code)


def hand_features(cards: Sequence[Card], lang: str | None = None) -> list[str]:
    """What ``cards`` hold before the starter, biggest first: runs, same ranks, fifteens, a flush (an
    empty list when they hold nothing)."""
    code = _lang(lang)
    features: list[str] = []
    ranks = Counter(int(card.rank) for card in cards)
    run = _longest_run(ranks)
    if run:
        shape = tuple(sorted((ranks[r] for r in run if ranks[r] > 1), reverse=True))
        template = _RUN_SHAPES.get(shape, N_("a run of {length}"))
        features.append(gettext(template, code).format(length=number_words(len(run), lang=code)))
    in_run = set(run)
    pairs = [n for rank, n in ranks.items() if n > 1 and rank not in in_run]
    if pairs and all(n == 2 for n in pairs) and len(pairs) > 1:
        features.append(gettext("two pairs", code))
    else:
        features.extend(gettext(_SAME_RANK[n], code) for n in pairs)
    fifteens = sum(
        1
        for size in range(2, len(cards) + 1)
        for some in combinations(cards, size)
        if sum(card.value for card in some) == 15
    )
    if fifteens:
        features.append(
            ngettext("a fifteen", "{n} fifteens", fifteens, code).format(n=number_words(fifteens, lang=code))
        )
    if len(cards) >= 4 and len({card.suit for card in cards}) == 1:
        features.append(gettext("a flush", code))
    return features


def _longest_run(ranks: Mapping[int, int]) -> list[int]:
    """The ranks of the longest run of three or more among ``ranks`` (empty when there is none)."""
    best: list[int] = []
    current: list[int] = []
    for rank in range(1, 15):
        if ranks.get(rank):
            current.append(rank)
        else:
            if len(current) >= 3 and len(current) > len(best):
                best = current
            current = []
    return best


def _listed(parts: Sequence[str], lang: str) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return gettext("{first} and {last}", lang).format(first=", ".join(parts[:-1]), last=parts[-1])


def _crib_words(facts: Mapping[str, object], lang: str) -> str:
    owner = facts.get("owner", "")
    if facts.get("crib") == "own":
        return gettext("your partner's crib", lang) if owner == "partner" else gettext("your crib", lang)
    return gettext("the dealer's crib", lang)


def _float(facts: Mapping[str, object], key: str) -> float:
    value = facts.get(key, 0.0)
    return float(value) if isinstance(value, int | float) else 0.0


def _cards(facts: Mapping[str, object], key: str) -> tuple[Card, ...]:
    value = facts.get(key, ())
    return tuple(card for card in value if isinstance(card, Card)) if isinstance(value, tuple) else ()


def discard_words(
    best: Mapping[str, object], other: Mapping[str, object] | None = None, lang: str | None = None
) -> str:
    """Why the discard with facts ``best`` is good: what its kept cards hold, and, against ``other``
    (the next best, or the discard a player made), what the difference is in the crib, in hand and (by
    the pegging table, where the facts have it) in the play: ``keeps a double run of three and two
    fifteens; the 5 and the jack would give the dealer's crib 2.1 more``."""
    code = _lang(lang)
    kept = _cards(best, "kept")
    features = hand_features(kept, code)
    if features:
        parts = [gettext("keeps {what}", code).format(what=_listed(features, code))]
    else:
        parts = [gettext("keeps the cards that score most with the starter", code)]
    if other is None:
        return "; ".join(parts)
    crib = _crib_words(best, code)
    crib_gap = _float(other, "expected_crib") - _float(best, "expected_crib")
    if best.get("crib") == "own":
        if -crib_gap >= SMALL:
            parts.append(
                gettext("{cards} give {crib} {points} more", code).format(
                    cards=cards_words(_cards(best, "discard"), code),
                    crib=crib,
                    points=points_text(-crib_gap, code),
                )
            )
    elif crib_gap >= SMALL:
        parts.append(
            gettext("{cards} would give {crib} {points} more", code).format(
                cards=cards_words(_cards(other, "discard"), code),
                crib=crib,
                points=points_text(crib_gap, code),
            )
        )
    hand_gap = _float(best, "expected_hand") - _float(other, "expected_hand")
    if hand_gap >= SMALL:
        parts.append(
            gettext("{points} more in hand than keeping {cards}", code).format(
                points=points_text(hand_gap, code), cards=cards_words(_cards(other, "kept"), code)
            )
        )
    # The pegging table's estimate (where it applies): how much better the kept cards peg.
    peg_gap = _float(best, "pegging") - _float(other, "pegging")
    if peg_gap >= SMALL:
        parts.append(
            gettext("{points} more in the play than keeping {cards}", code).format(
                points=points_text(peg_gap, code), cards=cards_words(_cards(other, "kept"), code)
            )
        )
    return "; ".join(parts)


def play_words(
    best: Mapping[str, object],
    other: Mapping[str, object] | None = None,
    lang: str | None = None,
    *,
    cost: float = 0.0,
    win_cost: float | None = None,
) -> str:
    """Why the card with facts ``best`` is good: what it scores at once and the count it leaves, and,
    against ``other`` (the next best, or the card a player laid), what that one costs: in the chance
    to win (``win_cost``, 0 to 1) where it is known, else over the rest of the deal (``cost``, in
    expected points)."""
    code = _lang(lang)
    card = best.get("card")
    name = card_words(card, code) if isinstance(card, Card) else "?"
    now = int(_float(best, "points_now"))
    count = int(_float(best, "count"))
    if now:
        text = gettext("{card} scores {n} at once, making {count}", code)
    else:
        text = gettext("{card} makes {count} and gives the least away", code)
    parts = [text.format(card=name, n=now, count=count)]
    alternative = other.get("card") if other is not None else None
    if isinstance(alternative, Card):
        if win_cost is not None:
            if win_cost >= SMALL_CHANCE:
                parts.append(
                    gettext("{card} would cost {percent} of your chances to win", code).format(
                        card=card_words(alternative, code), percent=percent_text(win_cost, code)
                    )
                )
        elif cost >= SMALL:
            parts.append(
                gettext("{card} would cost {points} over the rest of the deal", code).format(
                    card=card_words(alternative, code), points=points_text(cost, code)
                )
            )
    return "; ".join(parts)


def claim_words(facts: Mapping[str, object], lang: str | None = None) -> str:
    """A muggins claim: the true count."""
    code = _lang(lang)
    return gettext("the count is {points}", code).format(points=int(_float(facts, "true")))


def reason_words(
    best: Mapping[str, object],
    other: Mapping[str, object] | None = None,
    lang: str | None = None,
    *,
    cost: float = 0.0,
    win_cost: float | None = None,
) -> str:
    """The reason for a choice in words, by the kind of decision in its facts (empty for a kind with no
    words: a plugin's phase)."""
    kind = best.get("kind")
    if kind == "discard":
        return discard_words(best, other, lang)
    if kind == "play":
        return play_words(best, other, lang, cost=cost, win_cost=win_cost)
    if kind == "claim":
        return claim_words(best, lang)
    return ""
