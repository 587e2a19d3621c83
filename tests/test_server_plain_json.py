"""The server's JSON without orjson: orjson is installed with cribcore, so the plain writer's own paths
(an event's text written field by field) are run here with orjson's switch turned off."""

from __future__ import annotations

import json
import random

import pytest

from cribcore.engine import Game
from cribcore.profiles import load_profile
from cribcore.server import wire
from cribcore.server.jsontext import compact_json


@pytest.mark.parametrize("profile", ["standard", "muggins", "three-players"])
def test_without_orjson_an_events_text_is_its_json_object(
    profile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire, "FAST", False)
    monkeypatch.setattr(wire, "compact", compact_json)
    game = Game(load_profile(profile), seed=8)
    chooser = random.Random(8)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, chooser.choice(game.view(seat).legal_actions))
    for seat in range(game.rules.seats):
        for event in game.view(seat).events:
            for lang in ("en", "es"):
                text = wire.event_text(event, lang)
                assert text.isascii()  # json's spelling: non-ASCII characters as escapes
                assert json.loads(text) == wire.event_to_json(event, lang)
