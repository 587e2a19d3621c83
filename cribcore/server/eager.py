"""Run a coroutine at once, up to its first wait, as ``asyncio``'s eager tasks do (Python 3.12 and
later) but on every supported Python.

The server writes a message to an idle connection this way: a write the socket takes without waiting
finishes here, with no trip through the event loop and no task; a write that has to wait (the client
reads too slowly) goes on as a task of its own, which the connection's writer waits for before its
next message. Nothing of the ASGI server is looked into: only the write's own coroutine.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator
from typing import Any, Generic, TypeVar

__all__ = ["start_now"]

_T = TypeVar("_T")


def start_now(coro: Coroutine[Any, Any, _T]) -> asyncio.Task[_T] | None:
    """Run ``coro`` now until it finishes or first waits: ``None`` when it finished (what it raised
    is raised here), else the task that finishes it on the event loop (its result and exception are
    the task's)."""
    try:
        waiting_for = coro.send(None)
    except StopIteration:
        return None
    except BaseException:
        coro.close()
        raise
    return asyncio.ensure_future(_rest(_Resumed(coro, waiting_for)))


async def _rest(resumed: _Resumed[_T]) -> _T:
    return await resumed


class _Resumed(Generic[_T]):
    """The rest of a coroutine that has already run up to ``waiting_for`` (what it yielded): awaited
    in a task, it hands the task that same future first, then passes everything on in both ways."""

    def __init__(self, coro: Coroutine[Any, Any, _T], waiting_for: Any) -> None:
        self._coro = coro
        self._waiting_for = waiting_for

    def __await__(self) -> Generator[Any, Any, _T]:
        coro, yielded = self._coro, self._waiting_for
        while True:
            try:
                sent = yield yielded
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # the task was cancelled, or the future failed
                try:
                    yielded = coro.throw(exc)
                except StopIteration as stop:
                    return stop.value  # type: ignore[no-any-return]
            else:
                try:
                    yielded = coro.send(sent)
                except StopIteration as stop:
                    return stop.value  # type: ignore[no-any-return]
