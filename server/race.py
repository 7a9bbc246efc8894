"""Wait for one thing unless another happens first: the race every runner needs.

A bot to be seated unless its process exits; a connection accepted unless the bot exits;
a game to begin unless the player leaves. :func:`wait_unless` runs the one wanted and
the ones that interrupt it side by side, and cancels whichever lost.
"""

from collections.abc import Awaitable, Callable
from typing import TypeVar

import trio

T = TypeVar("T")


async def wait_unless(
    wanted: Callable[[], Awaitable[T]], *unless: Callable[[], Awaitable[object]]
) -> T | None:
    """What ``wanted()`` returns, or ``None`` as soon as one of ``unless`` returns first
    (``wanted`` is then cancelled). For a wanted that returns ``None`` itself (an event's
    ``wait``), look at what it waited for: the event is set or it is not."""
    got: list[T] = []
    async with trio.open_nursery() as nursery:

        async def interrupt(other: Callable[[], Awaitable[object]]) -> None:
            await other()
            nursery.cancel_scope.cancel()

        for other in unless:
            nursery.start_soon(interrupt, other)
        got.append(await wanted())
        nursery.cancel_scope.cancel()
    return got[0] if got else None
