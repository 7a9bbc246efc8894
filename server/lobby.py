"""Before the game: run a connection's reader, wait for its NME, greet it."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

from engine import Kind
from engine.mapfile import GameMap
from protocol.cells import map_cells
from protocol.codec import Hme, Hum, Map, Nme, Set, message_name
from server.player import (
    Closed,
    FrameHook,
    Garbled,
    Player,
    Received,
)


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


async def admit(player: Player, connect_time: float) -> str | None:
    """``None`` once the first message is an NME (``player.name`` set), else why to drop it."""
    with trio.move_on_after(connect_time):
        event = await player.next_event()
        if isinstance(event, Received):
            if isinstance(event.message, Nme):
                player.name = event.message.text
                return None
            return f"first message is {message_name(event.message)}, not NME"
        if isinstance(event, Garbled):
            return str(event.error)
        assert isinstance(event, Closed)
        return f"closed before NME: {event.reason}"
    return f"no NME within {connect_time:g} s"


async def greet(player: Player, game_map: GameMap, species: Kind) -> None:
    """SET+HUM+HME in one write, then MAP in a second (raises SendFailed if it cannot go)."""
    x, y, _ = game_map.start(species == Kind.VAMPIRES)
    first = (
        Set(game_map.rows, game_map.cols),
        Hum(tuple((hx, hy) for hx, hy, _ in game_map.humans)),
        Hme(x, y),
    )
    await player.send_together(first)
    await player.send(Map(map_cells(game_map.initial_state())))
