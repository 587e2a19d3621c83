"""``POST /api/practice/discards``: the board's discard trainer (`cribcore.practice_discards`, the same
numbers as ``cribbage practice discards``).

The body names a hand by the seed and its number (``{"seed": 7, "hand": 3, "role": null}``: the role
alternates, dealer first, as at the terminal); without ``discard`` the answer is the deal
(``{"type": "deal", "hand", "cards", "dealer"}``), with it (``"discard": ["5H", "5D"]``) the judged
answer (``{"type": "result", ...}``, the fields of the terminal's ``--json`` result; the expert's
reason in ``lang``). Nothing is kept on the server: the running score and the long-run totals are the
board's. Two cards that are not of the hand are refused in one line.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..cards import CardParseError, parse_card
from ..engine import standard_profile
from ..practice_discards import deal_trials, judge
from .rooms import RoomError

__all__ = ["MAX_HAND", "DiscardQuestion", "practice_discards"]

MAX_HAND = 1000
"""The highest hand number a question may name."""


class DiscardQuestion(BaseModel):
    """The body of ``POST /api/practice/discards``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    seed: int = Field(ge=0, lt=2**32)
    hand: int = Field(1, ge=1, le=MAX_HAND)
    role: Literal["dealer", "pone"] | None = None
    discard: list[str] | None = Field(None, min_length=2, max_length=2)
    lang: Literal["en", "es"] = "en"


Parse = Callable[[Request, type[DiscardQuestion]], Awaitable[DiscardQuestion]]
Allow = Callable[[str, float], Awaitable[bool]]


def practice_discards(parse: Parse, allow: Allow) -> Callable[[Request], Awaitable[Response]]:
    """The route's handler; ``parse`` reads and checks the body (the server's ``parsed``), ``allow``
    says whether an address may ask again now (a per-minute limit: each answer costs the expert's time)."""

    async def handle(request: Request) -> Response:
        if not await allow(request.client.host if request.client else "", time.monotonic()):
            raise RoomError("rate", "too many practice requests from this address: slow down")
        question = await parse(request, DiscardQuestion)
        trial = deal_trials(question.seed, question.hand, question.role)[-1]
        if question.discard is None:
            return JSONResponse({"type": "deal", **trial.to_json()})
        try:
            chosen = tuple(parse_card(text) for text in question.discard)
        except CardParseError as exc:
            raise RoomError("malformed", f"discard: {exc}") from None
        if len(set(chosen)) != 2 or not set(chosen) <= set(trial.hand):
            raise RoomError("malformed", "discard: choose two different cards of the hand")
        answer = await asyncio.to_thread(judge, trial, chosen, standard_profile(), question.lang)
        result: dict[str, Any] = {"type": "result", **answer.to_json()}
        return JSONResponse(result)

    return handle
