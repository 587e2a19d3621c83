"""An event's words on the wire are the speech module's, whether or not they were kept from before."""

from __future__ import annotations

import random

import pytest

from cribcore.engine import Game
from cribcore.events import Event
from cribcore.profiles import load_profile
from cribcore.server.wire import event_to_json
from cribcore.speech import reasons, spoken_play, spoken_show, spoken_starter


def _spoken_directly(event: Event, lang: str) -> str | None:
    if event.kind == "play":
        return spoken_play(event.count or 0, event.items, lang=lang)
    if event.kind in ("hand", "crib") and event.note != "to count":
        return spoken_show(event.items, lang=lang)
    if event.kind == "heels":
        return spoken_starter(event.items, lang=lang)
    return None


def _events_of_one_game() -> list[Event]:
    game = Game(load_profile(), seed=11)
    chooser = random.Random(5)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
    return list(game.view(0).events)


def test_every_event_says_what_the_speech_module_says_in_each_language() -> None:
    events = _events_of_one_game()
    assert any(not e.items for e in events) and any(e.items for e in events)
    for lang in ("en", "es", "en"):  # the second English pass reads the words kept by the first
        for event in events:
            data = event_to_json(event, lang=lang)
            assert data["spoken"] == _spoken_directly(event, lang)
            assert data["reasons"] == (reasons(event.items, lang=lang) if event.items else "")


def test_an_unknown_language_is_refused_for_an_event_that_scores_nothing_too() -> None:
    plain = next(e for e in _events_of_one_game() if not e.items)
    event_to_json(plain, lang="en")  # its words kept for English
    with pytest.raises(ValueError):
        event_to_json(plain, lang="xx")
