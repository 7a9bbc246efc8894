"""The ladder store's calls made off the event loop, so that a slow disk never holds up a
game's move clock.

The store writes with ``synchronous = FULL``: each commit waits for the disk. The server
makes every call of its store (reads too: they share the writer's connection) through
:meth:`StoreThread.run`, which makes it in a worker thread, one call at a time, in the order
they were asked for (trio's :class:`~trio.CapacityLimiter` wakes its waiters first come,
first served). A call once asked for is made and waited for even if the task that asked is
cancelled: a server stopped by Ctrl-C writes what it had to write before it exits.
"""

from collections.abc import Callable
from typing import TypeVar, TypeVarTuple

import trio

from vvw.ladder.store import LadderStore

T = TypeVar("T")
Args = TypeVarTuple("Args")


class StoreThread:
    """``store``'s calls, one at a time in a worker thread (see the module's docstring)."""

    def __init__(self, store: LadderStore) -> None:
        self.store = store
        self._turn = trio.CapacityLimiter(1)

    async def run(self, call: Callable[[*Args], T], *args: *Args) -> T:
        """``call(*args)`` (a method of the store) in a worker thread once the calls asked
        for before it are done; its result, or its exception."""
        with trio.CancelScope(shield=True):
            result = await trio.to_thread.run_sync(call, *args, limiter=self._turn)
        return result
