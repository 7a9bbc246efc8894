"""Bytes relayed both ways between a bot and a server, each chunk forwarded the moment it
arrives and only then shown to a watcher: ``vvw proxy``'s relay and ``vvw ladder join``'s."""

import time
from collections.abc import Callable

import trio

RECEIVE_SIZE = 65536

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
    goes on); a write that fails (the receiver is gone) ends the whole relay (``give_up``).
    """
    while True:
        try:
            data = await source.receive_some(RECEIVE_SIZE)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            data = b""
        at = time.monotonic()
        try:
            if not data:
                await target.send_eof()
                return
            await target.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            if data:
                feed(data, at)
            give_up()
            return
        feed(data, at)


async def relay(
    bot: trio.SocketStream, server: trio.SocketStream, from_bot: Feed, from_server: Feed
) -> None:
    """Relay until both ways have ended, or one write failed; both streams closed after."""
    async with bot, server, trio.open_nursery() as nursery:
        cancel = nursery.cancel_scope.cancel
        nursery.start_soon(pump, bot, server, from_bot, cancel)
        nursery.start_soon(pump, server, bot, from_server, cancel)
