"""Bytes relayed both ways between a bot and a server, each chunk forwarded the moment it
arrives and only then shown to a watcher: ``vvw proxy``'s relay and ``vvw ladder join``'s."""

import time
from collections.abc import Callable

import trio

RECEIVE_SIZE = 65536
DRAIN_TIME = 5.0
"""Seconds a relay goes on reading, and showing, what a side still sends once a write to
the other side failed; a side that has not ended by then is let go."""

Feed = Callable[[bytes, float], None]
"""Given each chunk forwarded and the moment (``time.monotonic()``) it arrived."""


async def pump(
    source: trio.SocketStream,
    target: trio.SocketStream,
    feed: Feed,
    give_up: Callable[[], None],
) -> None:
    """Forward ``source`` to ``target`` as it arrives, then feed the watcher.

    The end of ``source`` is passed on as an end of ``target``'s sending side (the other way
    goes on). A write that fails (the receiver is gone) calls ``give_up`` and nothing more
    is forwarded, but ``source`` is still read to its end and fed: whichever side closes
    first, the watcher is given every byte each side sent (a chunk cut by a cancellation
    included).
    """
    forwarding = True
    while True:
        try:
            data = await source.receive_some(RECEIVE_SIZE)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            data = b""
        at = time.monotonic()
        try:
            if forwarding:
                await (target.send_all(data) if data else target.send_eof())
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            forwarding = False
            give_up()
        finally:
            if data:
                feed(data, at)
        if not data:
            return


async def relay(
    bot: trio.SocketStream, server: trio.SocketStream, from_bot: Feed, from_server: Feed
) -> None:
    """Relay until both ways have ended (once a write failed: at most :data:`DRAIN_TIME`
    more); both streams closed after."""
    async with bot, server, trio.open_nursery() as nursery:
        scope = nursery.cancel_scope

        def give_up() -> None:
            scope.deadline = min(scope.deadline, trio.current_time() + DRAIN_TIME)

        nursery.start_soon(pump, bot, server, from_bot, give_up)
        nursery.start_soon(pump, server, bot, from_server, give_up)
