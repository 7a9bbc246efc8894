"""Before the game: run a connection's reader, wait for its NME, greet it."""

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

from engine import Kind
from engine.mapfile import GameMap
from protocol.codec import Nme, message_name
from protocol.referee import greeting
from server.events import Dropped, DropReason
from server.player import (
    Closed,
    FrameHook,
    Garbled,
    Player,
    Received,
)

log = logging.getLogger(__name__)

MAX_PENDING = 8
"""Connections allowed to be waiting for their NME at once (a flood cannot exhaust the
server); when one more comes, the oldest gives way, so silent ones never keep a bot out."""


@asynccontextmanager
async def connected(
    stream: trio.abc.Stream, peer: str, on_frame: FrameHook | None = None
) -> AsyncIterator[Player]:
    """A :class:`Player` whose reader runs for the life of the block; closed at the end.

    The reader is shielded, so that when the block is cancelled (the server stops after
    its last game) the close can still see the bot hang up instead of waiting out its
    linger; it is cancelled once the connection is closed.
    """
    player = Player(stream, peer, on_frame=on_frame)
    reader = trio.CancelScope(shield=True)

    async def read() -> None:
        with reader:
            await player.read_forever()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(read)
        try:
            yield player
        finally:
            try:
                await player.close()
            finally:
                reader.cancel()  # whatever close did: a shielded reader left running hangs


async def admit(player: Player, connect_time: float) -> Dropped | None:
    """``None`` once the first message is an NME (``player.name`` set), else the drop."""

    def drop(reason: DropReason, detail: str) -> Dropped:
        return Dropped(player.peer, reason, detail)

    with trio.move_on_after(connect_time):
        event = await player.next_event()
        if isinstance(event, Received):
            if isinstance(event.message, Nme):
                player.name = event.message.text
                return None
            name = message_name(event.message)
            return drop(DropReason.NOT_NME, f"first message is {name}, not NME")
        if isinstance(event, Garbled):
            return drop(DropReason.GARBLED, str(event.error))
        assert isinstance(event, Closed)
        return drop(DropReason.HUNG_UP, f"closed before NME: {event.reason}")
    return drop(DropReason.SILENT, f"no NME within {connect_time:g} s")


class Admissions:
    """The connections waiting for their NME, oldest first: at most ``limit`` of them."""

    def __init__(self, limit: int = MAX_PENDING) -> None:
        self.limit = limit
        self._waiting: dict[trio.CancelScope, str] = {}
        """Each waiting connection's admission scope (cancelled when it must give way) and
        peer."""

    async def admit(self, player: Player, connect_time: float) -> Dropped | None:
        """:func:`admit`, once the oldest waiting connection has given way if ``limit``
        were waiting already (:attr:`DropReason.GAVE_WAY` for it)."""
        if len(self._waiting) >= self.limit:
            oldest = next(iter(self._waiting))
            log.info("%s gives way to %s", self._waiting.pop(oldest), player.peer)
            oldest.cancel()
        admission = trio.CancelScope()
        self._waiting[admission] = player.peer
        dropped = None
        try:
            with admission:
                dropped = await admit(player, connect_time)
        finally:
            self._waiting.pop(admission, None)
        if admission.cancelled_caught:
            return Dropped(
                player.peer,
                DropReason.GAVE_WAY,
                f"no NME yet, and it gave way to a newer connection ({self.limit} were"
                " waiting for theirs)",
            )
        return dropped


async def greet(player: Player, game_map: GameMap, species: Kind) -> None:
    """SET+HUM+HME in one write, then MAP in a second (:func:`protocol.referee.greeting`);
    raises SendFailed if it cannot go."""
    for write in greeting(game_map, species):
        await player.send_together(write)
