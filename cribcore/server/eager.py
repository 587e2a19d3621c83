"""Start a coroutine as a task of its own that runs at once, up to its first wait, where Python can
(asyncio's eager start, Python 3.12 and later).

The server writes a message to an idle connection this way: a write the socket takes without waiting
is done before the call returns, with no trip through the event loop; a write that has to wait (the
client reads too slowly) goes on in its task, which the connection's writer waits for before its next
message. The whole write runs in its one task (nothing is handed from one task to another), and
nothing of the ASGI server is looked into. On Python 3.11 the task begins on the loop's next turn.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["start_now"]

_T = TypeVar("_T")


def start_now(coro: Coroutine[Any, Any, _T]) -> asyncio.Task[_T]:
    """A task running ``coro``, already run up to its first wait where Python starts tasks eagerly
    (then it may be done on return)."""
    loop = asyncio.get_running_loop()
    if sys.version_info >= (3, 12):
        return asyncio.Task(coro, loop=loop, eager_start=True)
    return loop.create_task(coro)
