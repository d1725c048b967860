"""One ``python -m bot`` process serves every configured channel (Telegram, Zalo, ...).

Each channel is a ``Runner``: a coroutine function that serves until the shared ``stopping``
event is set (SIGTERM or SIGINT) and raises ``delivery.StartError`` for what stops it.  When one
channel cannot start, the others are stopped (drained) too, and the error is the process's.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable, Sequence

Runner = Callable[[asyncio.Event], Awaitable[None]]


async def serve(runners: Sequence[Runner]) -> None:
    """Run every channel together until SIGTERM or SIGINT; the first error stops them all."""
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stopping.set)
    tasks = [asyncio.ensure_future(runner(stopping)) for runner in runners]
    try:
        for finished in asyncio.as_completed(tasks):
            try:
                await finished
            except BaseException:
                stopping.set()  # the others drain and stop
                await asyncio.gather(*tasks, return_exceptions=True)
                raise
            stopping.set()  # a channel that ends stops the process, as a lone channel does
    finally:
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(number)
