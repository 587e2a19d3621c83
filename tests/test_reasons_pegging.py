"""A discard's reason says when the kept cards peg better (the pegging table's estimate), in both
languages."""

from __future__ import annotations

from cribcore.cards import parse_cards
from cribcore.players.reasons import discard_words


def facts(kept: str, thrown: str, pegging: float) -> dict[str, object]:
    return {
        "kind": "discard",
        "kept": tuple(parse_cards(kept)),
        "discard": tuple(parse_cards(thrown)),
        "expected_hand": 8.0,
        "expected_crib": 4.0,
        "crib": "opponent",
        "pegging": pegging,
    }


def test_the_play_is_named_when_the_kept_cards_peg_better() -> None:
    best, other = facts("AC 4C 4D 5C", "JH KD", 0.4), facts("4C 4D 5C JH", "AC KD", -0.6)
    assert discard_words(best, other, "en") == (
        "keeps a pair; 1.0 more in the play than keeping the two 4s, the 5 and the jack"
    )
    assert "1,0 más en el juego que quedándose con" in discard_words(best, other, "es")
    assert "in the play" not in discard_words(best, facts("4C 4D 5C JH", "AC KD", 0.2), "en")
