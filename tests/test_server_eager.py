"""The server's direct write (`eager.start_now`) runs its whole coroutine in one task of its own: no
part of it runs in the caller's task (a coroutine begun in one task and finished in another confuses
whatever keys its state by task, such as cancel scopes)."""

from __future__ import annotations

import asyncio

from cribcore.server.eager import start_now


def test_the_whole_write_runs_in_the_task_it_returns() -> None:
    async def scenario() -> None:
        seen: list[asyncio.Task[object] | None] = []
        wake = asyncio.Event()

        async def write() -> str:
            seen.append(asyncio.current_task())
            await wake.wait()  # a socket that makes the write wait
            seen.append(asyncio.current_task())
            return "written"

        caller = asyncio.current_task()
        task = start_now(write())
        wake.set()
        assert await task == "written"
        assert seen == [task, task] and caller not in seen

    asyncio.run(scenario())
