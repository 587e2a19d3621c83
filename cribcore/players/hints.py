"""Hints: the action the expert level would take from a view, with its reason: the numbers (expected
points) and the words a player uses (`cribcore.players.reasons`), in English or Spanish."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..actions import Action
from ..cards import format_cards
from ..i18n import N_, check_language, current_language, gettext
from ..views import SeatView
from ..written_numbers import decimal_text
from .expert import ExpertPlayer, Judgement
from .reasons import percent_text, reason_words
from .wild import on_standard_cards

__all__ = ["HINT_SEED", "Hint", "hint", "judgement_facts", "numbers_reason"]

HINT_SEED = 0
"""The expert's seed for hints: the same view always gets the same hint."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested legal action and a one-line reason: the expected points, then the words
    (``words`` alone: the reason as a player says it, without numbers)."""

    action: Action
    reason: str
    words: str = ""


def judgement_facts(judgement: Judgement, view: SeatView) -> Mapping[str, object]:
    """``judgement``'s facts, with whose crib a seat's own crib is (``owner``: ``"self"`` or
    ``"partner"``) for the words."""
    facts = dict(judgement.facts)
    if facts.get("kind") == "discard":
        facts["owner"] = "self" if view.is_dealer else "partner"
    return facts


def _win_part(judgement: Judgement, lang: str, line: str = "") -> str:
    """``line`` followed by the chance to win after ``judgement``'s choice, when the expert knows it."""
    if judgement.win is None:
        return line
    return line + gettext("; {percent} to win the game", lang).format(
        percent=percent_text(judgement.win, lang)
    )


def numbers_reason(judgement: Judgement, view: SeatView, lang: str | None = None) -> str:
    """The expected points behind ``judgement``, as one line: ``keeps 4H 5D 5H 6C: expected 16.0 in
    hand, +4.7 in your crib (net 20.7; hand 12 to 24)`` or ``plays 5H: expected +1.2 points over the
    rest of the play``."""
    code = current_language() if lang is None else check_language(lang)
    facts = judgement.facts
    kind = facts.get("kind")
    if kind == "discard":
        kept = facts.get("kept", ())
        crib = float(facts.get("expected_crib", 0.0))  # type: ignore[arg-type]
        if facts.get("crib") == "own":
            template = (
                N_("+{points} in your crib") if view.is_dealer else N_("+{points} in your partner's crib")
            )
        else:
            # What is given away, said as such: "-5.4 in the opponent's crib" read as a loss of 5.4
            # expected in the crib.
            template = (
                N_("gives {points} to the opponent's crib")
                if view.rules.seats == 2
                else N_("gives {points} to the dealer's crib")
            )
        whose = gettext(template, code).format(points=decimal_text(crib, 1, code))
        text = gettext(
            "keeps {cards}: expected {hand} in hand, {crib} (net {net}; hand {low} to {high})", code
        )
        return _win_part(
            judgement,
            code,
            text.format(
                cards=format_cards(kept) if isinstance(kept, tuple) else "",
                hand=decimal_text(float(facts.get("expected_hand", 0.0)), 1, code),  # type: ignore[arg-type]
                crib=whose,
                net=decimal_text(float(facts.get("net", 0.0)), 1, code),  # type: ignore[arg-type]
                low=facts.get("min_hand", 0),
                high=facts.get("max_hand", 0),
            ),
        )
    if kind == "play":
        if len(view.legal_actions) == 1:
            return gettext("the only card you can lay", code)
        text = gettext(
            "plays {card}: expected {points} points against the other side over the rest of the deal", code
        )
        line = text.format(
            card=facts.get("card", ""), points=decimal_text(judgement.points, 1, code, sign=True)
        )
        return line + _win_part(judgement, code)
    if kind == "claim":
        return ""
    return gettext("the first choice offered", code)


def hint(view: SeatView, lang: str | None = None) -> Hint:
    """The expert's choice for ``view``'s seat, with its reason in ``lang`` (default: the current
    language); ``view.legal_actions`` must not be empty. The action is always one of
    ``view.legal_actions``."""
    code = current_language() if lang is None else check_language(lang)
    judged: list[list[Judgement]] = []

    def decide(seen: SeatView) -> Action:
        # A hint comes at once: a profile whose win table is not at hand is judged by points.
        judgements = ExpertPlayer(HINT_SEED, compute_tables=False).judge(seen)
        judged.append(judgements)
        return judgements[0].action

    # A plugin's extra cards (jokers) get standard stand-ins, as when the level plays.
    action = on_standard_cards(view, decide)
    judgements = judged[0]
    best = judgements[0]
    other = judgements[1] if len(judgements) > 1 else None
    words = reason_words(
        judgement_facts(best, view),
        judgement_facts(other, view) if other is not None else None,
        code,
        cost=best.points - other.points if other is not None else 0.0,
        win_cost=best.win - other.win
        if other is not None and best.win is not None and other.win is not None
        else None,
    )
    numbers = numbers_reason(best, view, code)
    reason = "; ".join(part for part in (numbers, words) if part)
    return Hint(action, reason, words)
