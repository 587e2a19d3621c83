"""The browser board's languages without a browser: its catalog covers every message, the server hands
it out as JSON, and each seat is spoken to in the language its connection asked for."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from cribcore.server.app import Limits, create_app
from cribcore.server.catalog import board_catalog_path, board_messages

from .board_messages import board_message_ids

_FIELDS = re.compile(r"\{(\w+)\}")


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(limits=Limits(messages_per_second=1000, burst=1000))) as test_client:
        yield test_client


def test_every_board_message_has_a_spanish_translation() -> None:
    with board_catalog_path("es").open("rb") as po:
        catalog = read_po(po, locale="es", domain="board")
    ids = board_message_ids()
    assert len(ids) > 150  # the extraction found the board's messages
    missing = [i for i in ids if not (catalog.get(i) and catalog[i].string and not catalog[i].fuzzy)]
    assert not missing, f"board messages with no Spanish translation: {missing}"
    for message_id in ids:
        translated = str(catalog[message_id].string)
        assert set(_FIELDS.findall(translated)) == set(_FIELDS.findall(message_id)), message_id


def test_the_board_catalog_is_served_as_json(client: TestClient) -> None:
    answer = client.get("/api/i18n/es")
    assert answer.status_code == 200
    messages = answer.json()["messages"]
    assert messages["Next hand"] == "Mano siguiente"
    assert messages == board_messages("es")
    assert client.get("/api/i18n/en").json()["messages"] == {}
    refused = client.get("/api/i18n/fr")
    assert refused.status_code == 404 and "fr" in refused.json()["error"]


def _state(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state":
            return message
        assert message["type"] != "error", message


def _spoken(state: dict[str, Any]) -> list[str]:
    return [e["spoken"] for e in state["events"] if e["spoken"]]


def test_each_seat_is_spoken_to_in_its_own_language(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"mode": "computer", "names": ["Ann"], "seed": 11}).json()
    key = room["keys"][0]["key"]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "key": key, "lang": "es"})
        state = _state(ws)
        # Play the first legal action until a hand has been counted aloud.
        while not any(e["kind"] == "hand" and e["spoken"] for e in state["events"]):
            legal = state["view"]["legal"]
            if state["room"]["between_hands"] is not None:
                ws.send_json({"type": "next"})
            elif legal:
                ws.send_json({"type": "action", "action": legal[0]})
            else:
                ws.send_json({"type": "sync"})
            following = _state(ws)
            events = [*state["events"][: following["events_start"]], *following["events"]]
            state = {**following, "events": events}
        spanish = " ".join(_spoken(state))
        assert re.search(r"\b(quince|pareja|escalera|son|nada)\b", spanish), spanish
        assert not re.search(r"\b(fifteen|pair|run|is)\b", spanish), spanish

        ws.send_json({"type": "lang", "lang": "en"})
        english = _state(ws)
        assert english["events_start"] == 0  # the whole log again, in the new words
        assert re.search(r"\b(fifteen|pair|run|is|nothing)\b", " ".join(_spoken(english)))

        ws.send_json({"type": "lang", "lang": "fr"})
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "malformed" and "lang" in error["message"]
